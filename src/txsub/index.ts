export {
  embeddedCoreClient,
  httpCoreClient,
  parseTxAnswer,
  CoreAnswerError,
  CoreUnavailableError,
  type CoreClient,
  type CoreSubmitStatus,
} from './core_client.js';
export { prismaSubmissionStore, type SubmissionStore } from './store.js';
export {
  isAccepted,
  SubmissionSystem,
  type AcceptedSubmission,
  type AsyncSubmissionOutcome,
  type SubmissionOptions,
  type SubmissionOutcome,
} from './submission_system.js';
export { MeteredSubmissionSystem } from './metered.js';
