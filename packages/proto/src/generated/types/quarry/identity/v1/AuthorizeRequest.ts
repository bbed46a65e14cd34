// Original file: /work/main/proto/quarry/identity/v1/identity.proto

import type { Actor as _quarry_identity_v1_Actor, Actor__Output as _quarry_identity_v1_Actor__Output } from '../../../quarry/identity/v1/Actor';

/**
 * "May actor do action on project/group?"
 */
export interface AuthorizeRequest {
  /**
   * Caller.
   */
  'actor'?: (_quarry_identity_v1_Actor | null);
  /**
   * read_project, read_repository, download_code, push_code, admin_project,
   * remove_project, read_group, admin_group, create_projects, create_subgroup.
   */
  'action'?: (string);
  /**
   * Project id or full path (set this or group).
   */
  'project'?: (string);
  /**
   * Group id or full path (set this or project).
   */
  'group'?: (string);
}

/**
 * "May actor do action on project/group?"
 */
export interface AuthorizeRequest__Output {
  /**
   * Caller.
   */
  'actor': (_quarry_identity_v1_Actor__Output | null);
  /**
   * read_project, read_repository, download_code, push_code, admin_project,
   * remove_project, read_group, admin_group, create_projects, create_subgroup.
   */
  'action': (string);
  /**
   * Project id or full path (set this or group).
   */
  'project': (string);
  /**
   * Group id or full path (set this or project).
   */
  'group': (string);
}
