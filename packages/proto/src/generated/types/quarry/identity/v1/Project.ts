// Original file: /work/main/proto/quarry/identity/v1/identity.proto

import type { Namespace as _quarry_identity_v1_Namespace, Namespace__Output as _quarry_identity_v1_Namespace__Output } from '../../../quarry/identity/v1/Namespace';
import type { User as _quarry_identity_v1_User, User__Output as _quarry_identity_v1_User__Output } from '../../../quarry/identity/v1/User';
import type { Long } from '@grpc/proto-loader';

/**
 * A project.
 */
export interface Project {
  /**
   * Project id.
   */
  'id'?: (number | string | Long);
  /**
   * Name.
   */
  'name'?: (string);
  /**
   * Path segment.
   */
  'path'?: (string);
  /**
   * Description.
   */
  'description'?: (string);
  /**
   * "public", "internal" or "private".
   */
  'visibility'?: (string);
  /**
   * Default branch name.
   */
  'defaultBranch'?: (string);
  /**
   * The owning namespace.
   */
  'namespace'?: (_quarry_identity_v1_Namespace | null);
  /**
   * "namespace/path".
   */
  'pathWithNamespace'?: (string);
  /**
   * "Namespace Name / Name".
   */
  'nameWithNamespace'?: (string);
  /**
   * Creator user id.
   */
  'creatorId'?: (number | string | Long);
  /**
   * Creation time, ISO 8601.
   */
  'createdAt'?: (string);
  /**
   * Update time, ISO 8601.
   */
  'updatedAt'?: (string);
  /**
   * Last activity time, ISO 8601.
   */
  'lastActivityAt'?: (string);
  /**
   * Archived flag.
   */
  'archived'?: (boolean);
  /**
   * The caller's direct project access level (0 = none).
   */
  'projectAccessLevel'?: (number);
  /**
   * The caller's inherited group access level (0 = none).
   */
  'groupAccessLevel'?: (number);
  /**
   * Owner of a personal project (absent for group projects).
   */
  'owner'?: (_quarry_identity_v1_User | null);
  /**
   * Topics.
   */
  'topics'?: (string)[];
  /**
   * Where the hashed repository lives, relative to the storage root.
   */
  'diskPath'?: (string);
  /**
   * Whether users may request access.
   */
  'requestAccessEnabled'?: (boolean);
  /**
   * CI config path or empty (= .gitlab-ci.yml).
   */
  'ciConfigPath'?: (string);
}

/**
 * A project.
 */
export interface Project__Output {
  /**
   * Project id.
   */
  'id': (number);
  /**
   * Name.
   */
  'name': (string);
  /**
   * Path segment.
   */
  'path': (string);
  /**
   * Description.
   */
  'description': (string);
  /**
   * "public", "internal" or "private".
   */
  'visibility': (string);
  /**
   * Default branch name.
   */
  'defaultBranch': (string);
  /**
   * The owning namespace.
   */
  'namespace': (_quarry_identity_v1_Namespace__Output | null);
  /**
   * "namespace/path".
   */
  'pathWithNamespace': (string);
  /**
   * "Namespace Name / Name".
   */
  'nameWithNamespace': (string);
  /**
   * Creator user id.
   */
  'creatorId': (number);
  /**
   * Creation time, ISO 8601.
   */
  'createdAt': (string);
  /**
   * Update time, ISO 8601.
   */
  'updatedAt': (string);
  /**
   * Last activity time, ISO 8601.
   */
  'lastActivityAt': (string);
  /**
   * Archived flag.
   */
  'archived': (boolean);
  /**
   * The caller's direct project access level (0 = none).
   */
  'projectAccessLevel': (number);
  /**
   * The caller's inherited group access level (0 = none).
   */
  'groupAccessLevel': (number);
  /**
   * Owner of a personal project (absent for group projects).
   */
  'owner': (_quarry_identity_v1_User__Output | null);
  /**
   * Topics.
   */
  'topics': (string)[];
  /**
   * Where the hashed repository lives, relative to the storage root.
   */
  'diskPath': (string);
  /**
   * Whether users may request access.
   */
  'requestAccessEnabled': (boolean);
  /**
   * CI config path or empty (= .gitlab-ci.yml).
   */
  'ciConfigPath': (string);
}
