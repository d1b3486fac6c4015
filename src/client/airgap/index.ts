// Air-gapped signing: unsigned requests prepared where no key is, signed responses made where the
// master key is, emergency kits of pre-signed cancels, and their transport by UR parts (QR) or files.
export { AirgapError, type AirgapErrorCode } from './errors';
export {
  AIRGAP_KINDS,
  KIT_FORMAT,
  MAX_KIT_ENTRIES,
  MAX_KIT_PER_EPOCH,
  REQUEST_FORMAT,
  RESPONSE_FORMAT,
  type AirgapContracts,
  type AirgapFormat,
  type AirgapKind,
  type EmergencyKit,
  type KitCancel,
  type KitMarket,
  type SignedResponse,
  type StepSignature,
  type UnsignedRequest,
} from './formats';
export { fingerprintOf } from './fingerprint';
export { describeRequest, type MarketName, type RequestDescription } from './describe';
export { STEP_COUNT, bindingDigests, stepAt, stepDigest, type SigningStep } from './steps';
export {
  checkRequest,
  draftApproveAgent,
  draftCancel,
  draftCancelAll,
  draftCancelReplace,
  draftClaim,
  draftOrder,
  draftRevokeAgent,
  draftWithdrawal,
  parseUnsignedRequest,
  requestFingerprint,
  requestToJson,
  type DraftContext,
  type UnsignedRequestJson,
} from './request';
export {
  REQUEST_KIND_OF,
  parseSignedResponse,
  responseToJson,
  signUnsignedRequest,
  toSignedAction,
  verifyResponse,
  type SignedResponseJson,
} from './response';
export {
  buildEmergencyKit,
  kitCancelDigest,
  kitCoverage,
  kitDigests,
  kitFingerprint,
  kitToJson,
  panicPlan,
  parseEmergencyKit,
  type EmergencyKitJson,
  type KitCoverage,
  type KitInput,
  type KitMarketCoverage,
  type KitSend,
  type PanicPlan,
} from './kit';
export {
  DEFAULT_FRAGMENT_BYTES,
  DEFAULT_MAX_PAYLOAD_BYTES,
  MAX_PART_CHARS,
  UR_TYPES,
  UrAssembler,
  UrPartStream,
  encodeUrParts,
  type UrProgress,
  type UrType,
} from './ur';
export {
  FORMAT_OF_UR_TYPE,
  MAX_FILE_CHARS,
  UR_TYPE_OF,
  payloadBytes,
  payloadFromBytes,
  payloadFromFileText,
  payloadFromJson,
  payloadToFileText,
  payloadToJson,
  suggestedFileName,
  type AirgapPayload,
} from './envelope';
