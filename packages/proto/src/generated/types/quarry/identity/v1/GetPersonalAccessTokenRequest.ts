// Original file: /work/main/proto/quarry/identity/v1/identity.proto

import type { Actor as _quarry_identity_v1_Actor, Actor__Output as _quarry_identity_v1_Actor__Output } from '../../../quarry/identity/v1/Actor';
import type { Long } from '@grpc/proto-loader';

/**
 * Reads a token by id (0 with self=true reads the caller's current token).
 */
export interface GetPersonalAccessTokenRequest {
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
 * Reads a token by id (0 with self=true reads the caller's current token).
 */
export interface GetPersonalAccessTokenRequest__Output {
  /**
   * Caller.
   */
  'actor': (_quarry_identity_v1_Actor__Output | null);
  /**
   * Token id.
   */
  'id': (number);
}
