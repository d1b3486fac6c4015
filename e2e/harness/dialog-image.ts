/**
 * Draws one of main's confirm dialogs as the person reads it (Electron shows it as a native message
 * box: title, message, detail, Cancel and the yes button) and saves it to test-results/screens/.
 */
import type { Page } from '@playwright/test';
import type { DialogRecord } from '../../test/support/scripted-dialogs';
import { SCREENS_DIR } from './fixture';

function escape(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** Draws `record` on `page` (replacing its content) and saves `${name}.png`; `tag` prefixes the title bar. */
export async function saveDialogImage(page: Page, record: DialogRecord, name: string, tag = ''): Promise<string> {
  if (record.kind !== 'confirm') throw new Error(`${name}: only confirm dialogs are drawn`);
  const { title, message, detail, confirmLabel } = record.request;
  const path = `${SCREENS_DIR}/${name}.png`;
  await page.setContent(`<!doctype html><html><head><style>
    body { margin: 0; padding: 24px; background: #2b2d31; font: 13px system-ui, sans-serif; }
    .box { width: 700px; background: #f3f3f3; color: #1d1d1f; border-radius: 8px; box-shadow: 0 8px 30px #0008; overflow: hidden; }
    .bar { background: #dcdcdc; padding: 6px 12px; font-weight: 600; color: #333; }
    .body { display: flex; gap: 16px; padding: 18px; }
    .icon { font-size: 34px; line-height: 1; }
    .msg { font-weight: 700; font-size: 14px; margin-bottom: 10px; }
    .detail { white-space: pre-wrap; font-family: ui-monospace, monospace; font-size: 12px; overflow-wrap: anywhere; }
    .buttons { display: flex; justify-content: flex-end; gap: 8px; padding: 0 18px 16px; }
    button { padding: 5px 16px; border-radius: 5px; border: 1px solid #aaa; background: #fff; font: inherit; }
    button.default { background: #0a64d8; color: #fff; border-color: #0a64d8; }
  </style></head><body><div class="box" id="dialog">
    <div class="bar">${escape(tag)}${escape(title)}</div>
    <div class="body"><div class="icon">⚠️</div><div><div class="msg">${escape(message)}</div><div class="detail">${escape(detail)}</div></div></div>
    <div class="buttons"><button class="default">Cancel</button><button>${escape(confirmLabel)}</button></div>
  </div></body></html>`);
  await page.locator('#dialog').screenshot({ path });
  return path;
}
