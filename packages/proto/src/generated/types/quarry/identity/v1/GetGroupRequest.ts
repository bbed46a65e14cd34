// Original file: /work/main/proto/quarry/identity/v1/identity.proto

import type { Actor as _quarry_identity_v1_Actor, Actor__Output as _quarry_identity_v1_Actor__Output } from '../../../quarry/identity/v1/Actor';

/**
 * Reads a group by id or full path.
 */
export interface GetGroupRequest {
  /**
   * Caller.
   */
  'actor'?: (_quarry_identity_v1_Actor | null);
  /**
   * Integer id or full path.
   */
  'idOrPath'?: (string);
}

/**
 * Reads a group by id or full path.
 */
export interface GetGroupRequest__Output {
  /**
   * Caller.
   */
  'actor': (_quarry_identity_v1_Actor__Output | null);
  /**
   * Integer id or full path.
   */
  'idOrPath': (string);
}
