/**
 * The typed errors of sync's crypto. Each says what the bytes did wrong, not
 * where they came from: the callers (the replicator, the pairing and
 * passphrase flows) know whether a server, a link or a person is at fault.
 */

/** Text that is not canonical unpadded base64url. */
export class Base64UrlError extends Error {
  override readonly name = 'Base64UrlError';
}

/** The passphrase did not open the wrapped data key: the AES-GCM tag did not verify. */
export class WrongPassphraseError extends Error {
  override readonly name = 'WrongPassphraseError';
  constructor() {
    super('The passphrase does not open this sync data key.');
  }
}

/**
 * A wrapped data key refused before any passphrase was tried: it does not
 * parse, or its PBKDF2 parameters are below our floor (a hostile server could
 * serve weak ones to make a passphrase cheap to guess) or absurdly high (to
 * hang the device).
 */
export class WrappedKeyError extends Error {
  override readonly name = 'WrappedKeyError';
  constructor(
    readonly reason: 'malformed' | 'weak_parameters',
    message: string,
    options?: { cause: unknown },
  ) {
    super(message, options);
  }
}

/** A synced document's envelope that did not open: not an envelope, not ours (or moved), or not JSON inside. */
export class EnvelopeError extends Error {
  override readonly name = 'EnvelopeError';
  constructor(
    readonly reason: 'malformed' | 'decrypt' | 'json',
    message: string,
    options?: { cause: unknown },
  ) {
    super(message, options);
  }
}

/** The device's sealed data key did not open under its vault key. */
export class DeviceVaultError extends Error {
  override readonly name = 'DeviceVaultError';
  constructor(
    readonly reason: 'malformed' | 'decrypt',
    message: string,
    options?: { cause: unknown },
  ) {
    super(message, options);
  }
}

/**
 * A pairing link that did not open: `bad_link` when it is not one of ours
 * (undecodable, malformed, unknown version, weak parameters), `wrong_code`
 * when the code does not open it.
 */
export class PairingError extends Error {
  override readonly name = 'PairingError';
  constructor(
    readonly kind: 'bad_link' | 'wrong_code',
    message: string,
    options?: { cause: unknown },
  ) {
    super(message, options);
  }
}
