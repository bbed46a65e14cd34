// Original file: /work/main/proto/quarry/identity/v1/identity.proto

import type { Actor as _quarry_identity_v1_Actor, Actor__Output as _quarry_identity_v1_Actor__Output } from '../../../quarry/identity/v1/Actor';
import type { PageRequest as _quarry_identity_v1_PageRequest, PageRequest__Output as _quarry_identity_v1_PageRequest__Output } from '../../../quarry/identity/v1/PageRequest';
import type { Long } from '@grpc/proto-loader';

/**
 * Lists projects visible to the caller.
 */
export interface ListProjectsRequest {
  /**
   * Caller.
   */
  'actor'?: (_quarry_identity_v1_Actor | null);
  /**
   * Paging.
   */
  'page'?: (_quarry_identity_v1_PageRequest | null);
  /**
   * Only projects the caller is a member of (directly or through groups).
   */
  'membership'?: (boolean);
  /**
   * Only projects the caller owns (personal namespace).
   */
  'owned'?: (boolean);
  /**
   * Substring of name or path (or path_with_namespace when search_namespaces).
   */
  'search'?: (string);
  /**
   * Visibility filter.
   */
  'visibility'?: (string);
  /**
   * "id", "name", "path", "created_at" (default), "updated_at", "last_activity_at".
   */
  'orderBy'?: (string);
  /**
   * "desc" (default) or "asc".
   */
  'sort'?: (string);
  /**
   * Only projects in this namespace (group projects listing); 0 = all.
   */
  'namespaceId'?: (number | string | Long);
  /**
   * With namespace_id: include projects of subgroups.
   */
  'includeSubgroups'?: (boolean);
  /**
   * Only projects of this user's personal namespace (GET /users/:id/projects); 0 = all.
   */
  'ownerUserId'?: (number | string | Long);
  /**
   * Minimum caller access level.
   */
  'minAccessLevel'?: (number);
  /**
   * Archived filter.
   */
  'archived'?: (boolean);
  /**
   * Match search against the namespace path too.
   */
  'searchNamespaces'?: (boolean);
  /**
   * Only projects whose id is greater than this (keyset-style filters).
   */
  'idAfter'?: (number | string | Long);
  /**
   * Only projects whose id is smaller than this.
   */
  'idBefore'?: (number | string | Long);
  /**
   * Topic filter.
   */
  'topic'?: (string);
  '_archived'?: "archived";
}

/**
 * Lists projects visible to the caller.
 */
export interface ListProjectsRequest__Output {
  /**
   * Caller.
   */
  'actor': (_quarry_identity_v1_Actor__Output | null);
  /**
   * Paging.
   */
  'page': (_quarry_identity_v1_PageRequest__Output | null);
  /**
   * Only projects the caller is a member of (directly or through groups).
   */
  'membership': (boolean);
  /**
   * Only projects the caller owns (personal namespace).
   */
  'owned': (boolean);
  /**
   * Substring of name or path (or path_with_namespace when search_namespaces).
   */
  'search': (string);
  /**
   * Visibility filter.
   */
  'visibility': (string);
  /**
   * "id", "name", "path", "created_at" (default), "updated_at", "last_activity_at".
   */
  'orderBy': (string);
  /**
   * "desc" (default) or "asc".
   */
  'sort': (string);
  /**
   * Only projects in this namespace (group projects listing); 0 = all.
   */
  'namespaceId': (number);
  /**
   * With namespace_id: include projects of subgroups.
   */
  'includeSubgroups': (boolean);
  /**
   * Only projects of this user's personal namespace (GET /users/:id/projects); 0 = all.
   */
  'ownerUserId': (number);
  /**
   * Minimum caller access level.
   */
  'minAccessLevel': (number);
  /**
   * Archived filter.
   */
  'archived'?: (boolean);
  /**
   * Match search against the namespace path too.
   */
  'searchNamespaces': (boolean);
  /**
   * Only projects whose id is greater than this (keyset-style filters).
   */
  'idAfter': (number);
  /**
   * Only projects whose id is smaller than this.
   */
  'idBefore': (number);
  /**
   * Topic filter.
   */
  'topic': (string);
  '_archived'?: "archived";
}
