export { followChanges } from './changes.js';
export { Follower } from './follower.js';
export { followKeyset, type Keyset } from './keyset.js';
export { SharedReads } from './shared_reads.js';
