// ed25519 verification through libsodium (sodium-native ships it prebuilt): the library
// stellar-core verifies with (PubKeyUtils::verifySig calls crypto_sign_verify_detached), so the
// same signatures pass (canonical S, no small-order key or R), and at about twice node:crypto's rate.
import { createRequire } from 'node:module';

interface Sodium {
  crypto_sign_verify_detached(signature: Uint8Array, message: Uint8Array, publicKey: Uint8Array): boolean;
}

const sodium = createRequire(import.meta.url)('sodium-native') as Sodium;

/** False for a signature that is not 64 bytes (stellar-core checks the size first), as for a bad one. */
export function verifyEd25519(publicKey: Uint8Array, message: Uint8Array, signature: Uint8Array): boolean {
  if (signature.length !== 64 || publicKey.length !== 32) return false;
  return sodium.crypto_sign_verify_detached(signature, message, publicKey);
}
