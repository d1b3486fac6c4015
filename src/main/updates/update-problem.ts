/**
 * Why an update was refused or did not complete: a code the window can act on and a sentence for
 * people. Refusals (a manifest or file this app will not install) and failures (the network, the
 * disk) differ only in what the status says next; both leave nothing an installer would run.
 */

export type UpdateProblemCode =
  | 'update.unsigned'
  | 'update.unknown_key'
  | 'update.bad_signature'
  | 'update.manifest_too_large'
  | 'update.invalid_manifest'
  | 'update.downgrade'
  | 'update.minimum_version'
  | 'update.redirect'
  | 'update.checksum'
  | 'update.file_too_large'
  | 'update.platform_signature'
  | 'update.server'
  | 'update.unreachable'
  | 'update.download_failed'
  | 'update.off'
  | 'update.not_ready';

/** Codes that mean "this release will not be installed"; the rest are failures a later check may get past. */
const REFUSALS: ReadonlySet<UpdateProblemCode> = new Set([
  'update.unsigned',
  'update.unknown_key',
  'update.bad_signature',
  'update.manifest_too_large',
  'update.invalid_manifest',
  'update.downgrade',
  'update.minimum_version',
  'update.redirect',
  'update.checksum',
  'update.file_too_large',
  'update.platform_signature',
]);

export class UpdateProblem extends Error {
  constructor(
    readonly code: UpdateProblemCode,
    message: string,
  ) {
    super(message);
    this.name = 'UpdateProblem';
  }

  get refused(): boolean {
    return REFUSALS.has(this.code);
  }
}

/** The sentence every refusal ends with. */
export const NOTHING_INSTALLED = 'Nothing was installed.';
