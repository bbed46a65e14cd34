// Original file: /work/main/proto/quarry/identity/v1/identity.proto

import type { Actor as _quarry_identity_v1_Actor, Actor__Output as _quarry_identity_v1_Actor__Output } from '../../../quarry/identity/v1/Actor';

/**
 * Deletes a project and its repository (Owner or administrator).
 */
export interface DeleteProjectRequest {
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
 * Deletes a project and its repository (Owner or administrator).
 */
export interface DeleteProjectRequest__Output {
  /**
   * Caller.
   */
  'actor': (_quarry_identity_v1_Actor__Output | null);
  /**
   * Integer id or full path.
   */
  'idOrPath': (string);
}
