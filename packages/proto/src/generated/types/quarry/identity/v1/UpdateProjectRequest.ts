// Original file: /work/main/proto/quarry/identity/v1/identity.proto

import type { Actor as _quarry_identity_v1_Actor, Actor__Output as _quarry_identity_v1_Actor__Output } from '../../../quarry/identity/v1/Actor';

/**
 * Updates a project (Maintainer or above; visibility and path need Owner).
 */
export interface UpdateProjectRequest {
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
   * New path.
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
   * New default branch (must exist in the repository when it has branches).
   */
  'defaultBranch'?: (string);
  /**
   * Topics, replacing the old list.
   */
  'topics'?: (string)[];
  /**
   * Whether topics was given (an empty list clears them).
   */
  'topicsSet'?: (boolean);
  /**
   * Archived flag.
   */
  'archived'?: (boolean);
  /**
   * Request access flag.
   */
  'requestAccessEnabled'?: (boolean);
  /**
   * CI config path.
   */
  'ciConfigPath'?: (string);
  '_name'?: "name";
  '_path'?: "path";
  '_description'?: "description";
  '_visibility'?: "visibility";
  '_defaultBranch'?: "defaultBranch";
  '_archived'?: "archived";
  '_requestAccessEnabled'?: "requestAccessEnabled";
  '_ciConfigPath'?: "ciConfigPath";
}

/**
 * Updates a project (Maintainer or above; visibility and path need Owner).
 */
export interface UpdateProjectRequest__Output {
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
   * New path.
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
   * New default branch (must exist in the repository when it has branches).
   */
  'defaultBranch'?: (string);
  /**
   * Topics, replacing the old list.
   */
  'topics': (string)[];
  /**
   * Whether topics was given (an empty list clears them).
   */
  'topicsSet': (boolean);
  /**
   * Archived flag.
   */
  'archived'?: (boolean);
  /**
   * Request access flag.
   */
  'requestAccessEnabled'?: (boolean);
  /**
   * CI config path.
   */
  'ciConfigPath'?: (string);
  '_name'?: "name";
  '_path'?: "path";
  '_description'?: "description";
  '_visibility'?: "visibility";
  '_defaultBranch'?: "defaultBranch";
  '_archived'?: "archived";
  '_requestAccessEnabled'?: "requestAccessEnabled";
  '_ciConfigPath'?: "ciConfigPath";
}
