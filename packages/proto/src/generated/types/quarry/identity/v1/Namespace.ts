// Original file: /work/main/proto/quarry/identity/v1/identity.proto

import type { Long } from '@grpc/proto-loader';

/**
 * The namespace a project lives in: a user's personal namespace or a group.
 */
export interface Namespace {
  /**
   * Namespace id (equals the group id for groups).
   */
  'id'?: (number | string | Long);
  /**
   * Name.
   */
  'name'?: (string);
  /**
   * URL path segment.
   */
  'path'?: (string);
  /**
   * "user" or "group".
   */
  'kind'?: (string);
  /**
   * Full path, e.g. "group/subgroup".
   */
  'fullPath'?: (string);
  /**
   * Parent group id; 0 for top-level.
   */
  'parentId'?: (number | string | Long);
  /**
   * Owner user id, for user namespaces.
   */
  'ownerId'?: (number | string | Long);
}

/**
 * The namespace a project lives in: a user's personal namespace or a group.
 */
export interface Namespace__Output {
  /**
   * Namespace id (equals the group id for groups).
   */
  'id': (number);
  /**
   * Name.
   */
  'name': (string);
  /**
   * URL path segment.
   */
  'path': (string);
  /**
   * "user" or "group".
   */
  'kind': (string);
  /**
   * Full path, e.g. "group/subgroup".
   */
  'fullPath': (string);
  /**
   * Parent group id; 0 for top-level.
   */
  'parentId': (number);
  /**
   * Owner user id, for user namespaces.
   */
  'ownerId': (number);
}
