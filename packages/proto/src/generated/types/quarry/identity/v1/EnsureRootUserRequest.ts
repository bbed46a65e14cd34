// Original file: /work/main/proto/quarry/identity/v1/identity.proto


/**
 * Creates the administrator "root" on first start, idempotently.
 */
export interface EnsureRootUserRequest {
  /**
   * Token to register for root when the instance is new; empty = generate one.
   */
  'presetToken'?: (string);
}

/**
 * Creates the administrator "root" on first start, idempotently.
 */
export interface EnsureRootUserRequest__Output {
  /**
   * Token to register for root when the instance is new; empty = generate one.
   */
  'presetToken': (string);
}
