// Original file: /work/main/proto/quarry/identity/v1/identity.proto

import type { Actor as _quarry_identity_v1_Actor, Actor__Output as _quarry_identity_v1_Actor__Output } from '../../../quarry/identity/v1/Actor';
import type { Long } from '@grpc/proto-loader';

/**
 * Creates a project; repo-service creates its repository in the same call.
 */
export interface CreateProjectRequest {
  /**
   * Caller.
   */
  'actor'?: (_quarry_identity_v1_Actor | null);
  /**
   * Name (one of name/path required).
   */
  'name'?: (string);
  /**
   * Path (derived from name when empty).
   */
  'path'?: (string);
  /**
   * Target namespace; 0 = the owner's personal namespace.
   */
  'namespaceId'?: (number | string | Long);
  /**
   * Visibility; empty = "private".
   */
  'visibility'?: (string);
  /**
   * Description.
   */
  'description'?: (string);
  /**
   * Default branch; empty = "main".
   */
  'defaultBranch'?: (string);
  /**
   * Create a first commit with a README on the default branch.
   */
  'initializeWithReadme'?: (boolean);
  /**
   * Create on behalf of this user (administrators; POST /projects/user/:user_id).
   */
  'ownerUserId'?: (number | string | Long);
  /**
   * Topics.
   */
  'topics'?: (string)[];
  /**
   * Request access flag.
   */
  'requestAccessEnabled'?: (boolean);
  /**
   * CI config path.
   */
  'ciConfigPath'?: (string);
  '_requestAccessEnabled'?: "requestAccessEnabled";
}

/**
 * Creates a project; repo-service creates its repository in the same call.
 */
export interface CreateProjectRequest__Output {
  /**
   * Caller.
   */
  'actor': (_quarry_identity_v1_Actor__Output | null);
  /**
   * Name (one of name/path required).
   */
  'name': (string);
  /**
   * Path (derived from name when empty).
   */
  'path': (string);
  /**
   * Target namespace; 0 = the owner's personal namespace.
   */
  'namespaceId': (number);
  /**
   * Visibility; empty = "private".
   */
  'visibility': (string);
  /**
   * Description.
   */
  'description': (string);
  /**
   * Default branch; empty = "main".
   */
  'defaultBranch': (string);
  /**
   * Create a first commit with a README on the default branch.
   */
  'initializeWithReadme': (boolean);
  /**
   * Create on behalf of this user (administrators; POST /projects/user/:user_id).
   */
  'ownerUserId': (number);
  /**
   * Topics.
   */
  'topics': (string)[];
  /**
   * Request access flag.
   */
  'requestAccessEnabled'?: (boolean);
  /**
   * CI config path.
   */
  'ciConfigPath': (string);
  '_requestAccessEnabled'?: "requestAccessEnabled";
}
