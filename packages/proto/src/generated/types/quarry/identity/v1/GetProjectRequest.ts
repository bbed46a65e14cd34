// Original file: /work/main/proto/quarry/identity/v1/identity.proto

import type { Actor as _quarry_identity_v1_Actor, Actor__Output as _quarry_identity_v1_Actor__Output } from '../../../quarry/identity/v1/Actor';

/**
 * Reads a project by id or full path.
 */
export interface GetProjectRequest {
  /**
   * Caller.
   */
  'actor'?: (_quarry_identity_v1_Actor | null);
  /**
   * Integer id or URL-decoded full path ("group/sub/proj").
   */
  'idOrPath'?: (string);
}

/**
 * Reads a project by id or full path.
 */
export interface GetProjectRequest__Output {
  /**
   * Caller.
   */
  'actor': (_quarry_identity_v1_Actor__Output | null);
  /**
   * Integer id or URL-decoded full path ("group/sub/proj").
   */
  'idOrPath': (string);
}
