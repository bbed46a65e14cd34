// Original file: /work/main/proto/quarry/identity/v1/identity.proto

import type { Project as _quarry_identity_v1_Project, Project__Output as _quarry_identity_v1_Project__Output } from '../../../quarry/identity/v1/Project';
import type { Group as _quarry_identity_v1_Group, Group__Output as _quarry_identity_v1_Group__Output } from '../../../quarry/identity/v1/Group';

/**
 * The answer when allowed. Refusals are gRPC errors: NOT_FOUND when the
 * target is invisible to the actor, PERMISSION_DENIED when visible but not allowed.
 */
export interface AuthorizeResponse {
  /**
   * The actor's effective access level on the target (0 = none).
   */
  'accessLevel'?: (number);
  /**
   * The project, when the target is a project.
   */
  'project'?: (_quarry_identity_v1_Project | null);
  /**
   * The group, when the target is a group.
   */
  'group'?: (_quarry_identity_v1_Group | null);
}

/**
 * The answer when allowed. Refusals are gRPC errors: NOT_FOUND when the
 * target is invisible to the actor, PERMISSION_DENIED when visible but not allowed.
 */
export interface AuthorizeResponse__Output {
  /**
   * The actor's effective access level on the target (0 = none).
   */
  'accessLevel': (number);
  /**
   * The project, when the target is a project.
   */
  'project': (_quarry_identity_v1_Project__Output | null);
  /**
   * The group, when the target is a group.
   */
  'group': (_quarry_identity_v1_Group__Output | null);
}
