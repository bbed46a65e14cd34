// Original file: /work/main/proto/quarry/identity/v1/identity.proto

import type { Actor as _quarry_identity_v1_Actor, Actor__Output as _quarry_identity_v1_Actor__Output } from '../../../quarry/identity/v1/Actor';
import type { Long } from '@grpc/proto-loader';

/**
 * Creates a token for a user (administrators).
 */
export interface CreatePersonalAccessTokenRequest {
  /**
   * Caller.
   */
  'actor'?: (_quarry_identity_v1_Actor | null);
  /**
   * Owner of the new token.
   */
  'userId'?: (number | string | Long);
  /**
   * Name.
   */
  'name'?: (string);
  /**
   * Scopes; at least one.
   */
  'scopes'?: (string)[];
  /**
   * Expiry date YYYY-MM-DD; empty = no expiry.
   */
  'expiresAt'?: (string);
  /**
   * Description.
   */
  'description'?: (string);
  /**
   * Token value to use instead of a random one (bootstrap of the root token only).
   */
  'presetToken'?: (string);
}

/**
 * Creates a token for a user (administrators).
 */
export interface CreatePersonalAccessTokenRequest__Output {
  /**
   * Caller.
   */
  'actor': (_quarry_identity_v1_Actor__Output | null);
  /**
   * Owner of the new token.
   */
  'userId': (number);
  /**
   * Name.
   */
  'name': (string);
  /**
   * Scopes; at least one.
   */
  'scopes': (string)[];
  /**
   * Expiry date YYYY-MM-DD; empty = no expiry.
   */
  'expiresAt': (string);
  /**
   * Description.
   */
  'description': (string);
  /**
   * Token value to use instead of a random one (bootstrap of the root token only).
   */
  'presetToken': (string);
}
