// Original file: /work/main/proto/quarry/identity/v1/identity.proto

import type { Actor as _quarry_identity_v1_Actor, Actor__Output as _quarry_identity_v1_Actor__Output } from '../../../quarry/identity/v1/Actor';
import type { Long } from '@grpc/proto-loader';

/**
 * Deletes a user and their personal namespace with its projects.
 */
export interface DeleteUserRequest {
  /**
   * Caller.
   */
  'actor'?: (_quarry_identity_v1_Actor | null);
  /**
   * User id.
   */
  'id'?: (number | string | Long);
}

/**
 * Deletes a user and their personal namespace with its projects.
 */
export interface DeleteUserRequest__Output {
  /**
   * Caller.
   */
  'actor': (_quarry_identity_v1_Actor__Output | null);
  /**
   * User id.
   */
  'id': (number);
}
