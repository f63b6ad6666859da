export * from './changes.js';
export * from './datastore.js';
export * from './envelope.js';
export * from './framed_stream.js';
export * from './ledger_bytes.js';
export * from './ledger_view.js';
export * from './sac_events.js';
