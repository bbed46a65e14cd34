// Original file: /work/main/proto/quarry/identity/v1/identity.proto

import type { Actor as _quarry_identity_v1_Actor, Actor__Output as _quarry_identity_v1_Actor__Output } from '../../../quarry/identity/v1/Actor';

/**
 * Updates a group (Owner or administrator).
 */
export interface UpdateGroupRequest {
  /**
   * Caller.
   */
  'actor'?: (_quarry_identity_v1_Actor | null);
  /**
   * Integer id or full path.
   */
  'idOrPath'?: (string);
  /**
   * New name.
   */
  'name'?: (string);
  /**
   * New path (descendant full paths follow).
   */
  'path'?: (string);
  /**
   * New description.
   */
  'description'?: (string);
  /**
   * New visibility.
   */
  'visibility'?: (string);
  /**
   * Project creation level.
   */
  'projectCreationLevel'?: (string);
  /**
   * Subgroup creation level.
   */
  'subgroupCreationLevel'?: (string);
  /**
   * Request access flag.
   */
  'requestAccessEnabled'?: (boolean);
  /**
   * Default branch.
   */
  'defaultBranch'?: (string);
  '_name'?: "name";
  '_path'?: "path";
  '_description'?: "description";
  '_visibility'?: "visibility";
  '_projectCreationLevel'?: "projectCreationLevel";
  '_subgroupCreationLevel'?: "subgroupCreationLevel";
  '_requestAccessEnabled'?: "requestAccessEnabled";
  '_defaultBranch'?: "defaultBranch";
}

/**
 * Updates a group (Owner or administrator).
 */
export interface UpdateGroupRequest__Output {
  /**
   * Caller.
   */
  'actor': (_quarry_identity_v1_Actor__Output | null);
  /**
   * Integer id or full path.
   */
  'idOrPath': (string);
  /**
   * New name.
   */
  'name'?: (string);
  /**
   * New path (descendant full paths follow).
   */
  'path'?: (string);
  /**
   * New description.
   */
  'description'?: (string);
  /**
   * New visibility.
   */
  'visibility'?: (string);
  /**
   * Project creation level.
   */
  'projectCreationLevel'?: (string);
  /**
   * Subgroup creation level.
   */
  'subgroupCreationLevel'?: (string);
  /**
   * Request access flag.
   */
  'requestAccessEnabled'?: (boolean);
  /**
   * Default branch.
   */
  'defaultBranch'?: (string);
  '_name'?: "name";
  '_path'?: "path";
  '_description'?: "description";
  '_visibility'?: "visibility";
  '_projectCreationLevel'?: "projectCreationLevel";
  '_subgroupCreationLevel'?: "subgroupCreationLevel";
  '_requestAccessEnabled'?: "requestAccessEnabled";
  '_defaultBranch'?: "defaultBranch";
}
