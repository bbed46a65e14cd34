// Original file: /work/main/proto/quarry/identity/v1/identity.proto

import type { Actor as _quarry_identity_v1_Actor, Actor__Output as _quarry_identity_v1_Actor__Output } from '../../../quarry/identity/v1/Actor';
import type { Long } from '@grpc/proto-loader';

/**
 * Revokes a token.
 */
export interface RevokePersonalAccessTokenRequest {
  /**
   * Caller.
   */
  'actor'?: (_quarry_identity_v1_Actor | null);
  /**
   * Token id.
   */
  'id'?: (number | string | Long);
}

/**
 * Revokes a token.
 */
export interface RevokePersonalAccessTokenRequest__Output {
  /**
   * Caller.
   */
  'actor': (_quarry_identity_v1_Actor__Output | null);
  /**
   * Token id.
   */
  'id': (number);
}
