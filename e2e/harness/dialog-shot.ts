/**
 * One of main's confirm dialogs drawn as the user reads it, on a page of its own so the app's page is
 * left as it was (the drawing itself: dialog-image.ts).
 */
import type { Page } from '@playwright/test';
import type { DialogRecord } from '../../test/support/scripted-dialogs';
import { saveDialogImage } from './dialog-image';

/** Draws the dialog on a page of its own (opened and closed here) and saves `${name}.png`. */
export async function dialogShot(from: Page, record: DialogRecord, name: string): Promise<void> {
  if (record.kind !== 'confirm') throw new Error(`${name}: main showed a ${record.kind} dialog, not a confirm.`);
  const page = await from.context().newPage();
  await page.setViewportSize({ width: 760, height: 600 });
  await saveDialogImage(page, record, name, "[main's dialog] ");
  await page.close();
}
