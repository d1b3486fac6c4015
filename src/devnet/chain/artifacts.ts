import artifactsJson from './artifacts.json' with { type: 'json' };
import { artifactsFileSchema, type ArtifactsFile } from './artifacts-schema';

/** The committed compiler output (see compile.ts), validated once at load. */
export const ARTIFACTS: ArtifactsFile = artifactsFileSchema.parse(artifactsJson);
