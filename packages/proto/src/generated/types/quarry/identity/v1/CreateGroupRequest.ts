// Original file: /work/main/proto/quarry/identity/v1/identity.proto

import type { Actor as _quarry_identity_v1_Actor, Actor__Output as _quarry_identity_v1_Actor__Output } from '../../../quarry/identity/v1/Actor';
import type { Long } from '@grpc/proto-loader';

/**
 * Creates a group.
 */
export interface CreateGroupRequest {
  /**
   * Caller.
   */
  'actor'?: (_quarry_identity_v1_Actor | null);
  /**
   * Name.
   */
  'name'?: (string);
  /**
   * Path.
   */
  'path'?: (string);
  /**
   * Parent group id; 0 = top-level.
   */
  'parentId'?: (number | string | Long);
  /**
   * Visibility; empty = "private".
   */
  'visibility'?: (string);
  /**
   * Description.
   */
  'description'?: (string);
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
  '_requestAccessEnabled'?: "requestAccessEnabled";
}

/**
 * Creates a group.
 */
export interface CreateGroupRequest__Output {
  /**
   * Caller.
   */
  'actor': (_quarry_identity_v1_Actor__Output | null);
  /**
   * Name.
   */
  'name': (string);
  /**
   * Path.
   */
  'path': (string);
  /**
   * Parent group id; 0 = top-level.
   */
  'parentId': (number);
  /**
   * Visibility; empty = "private".
   */
  'visibility': (string);
  /**
   * Description.
   */
  'description': (string);
  /**
   * Project creation level.
   */
  'projectCreationLevel': (string);
  /**
   * Subgroup creation level.
   */
  'subgroupCreationLevel': (string);
  /**
   * Request access flag.
   */
  'requestAccessEnabled'?: (boolean);
  /**
   * Default branch.
   */
  'defaultBranch': (string);
  '_requestAccessEnabled'?: "requestAccessEnabled";
}
