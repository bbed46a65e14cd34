// Original file: /work/main/proto/quarry/identity/v1/identity.proto

import type { Actor as _quarry_identity_v1_Actor, Actor__Output as _quarry_identity_v1_Actor__Output } from '../../../quarry/identity/v1/Actor';
import type { PageRequest as _quarry_identity_v1_PageRequest, PageRequest__Output as _quarry_identity_v1_PageRequest__Output } from '../../../quarry/identity/v1/PageRequest';
import type { Long } from '@grpc/proto-loader';

/**
 * Lists users.
 */
export interface ListUsersRequest {
  /**
   * Caller.
   */
  'actor'?: (_quarry_identity_v1_Actor | null);
  /**
   * Paging.
   */
  'page'?: (_quarry_identity_v1_PageRequest | null);
  /**
   * Exact username, case-insensitive.
   */
  'username'?: (string);
  /**
   * Substring of name, username or public e-mail (private e-mail for administrators).
   */
  'search'?: (string);
  /**
   * Only active users.
   */
  'active'?: (boolean);
  /**
   * Only blocked users.
   */
  'blocked'?: (boolean);
  /**
   * Only administrators (administrator callers only).
   */
  'admins'?: (boolean);
  /**
   * "id" (default), "name", "username", "created_at", "updated_at".
   */
  'orderBy'?: (string);
  /**
   * "desc" (default) or "asc".
   */
  'sort'?: (string);
  /**
   * Only external users.
   */
  'external'?: (boolean);
  /**
   * Users created after this ISO 8601 time.
   */
  'createdAfter'?: (string);
  /**
   * Users created before this ISO 8601 time.
   */
  'createdBefore'?: (string);
  /**
   * Keyset paging: only users whose id is greater than this.
   */
  'idAfter'?: (number | string | Long);
  /**
   * Keyset paging: only users whose id is smaller than this.
   */
  'idBefore'?: (number | string | Long);
}

/**
 * Lists users.
 */
export interface ListUsersRequest__Output {
  /**
   * Caller.
   */
  'actor': (_quarry_identity_v1_Actor__Output | null);
  /**
   * Paging.
   */
  'page': (_quarry_identity_v1_PageRequest__Output | null);
  /**
   * Exact username, case-insensitive.
   */
  'username': (string);
  /**
   * Substring of name, username or public e-mail (private e-mail for administrators).
   */
  'search': (string);
  /**
   * Only active users.
   */
  'active': (boolean);
  /**
   * Only blocked users.
   */
  'blocked': (boolean);
  /**
   * Only administrators (administrator callers only).
   */
  'admins': (boolean);
  /**
   * "id" (default), "name", "username", "created_at", "updated_at".
   */
  'orderBy': (string);
  /**
   * "desc" (default) or "asc".
   */
  'sort': (string);
  /**
   * Only external users.
   */
  'external': (boolean);
  /**
   * Users created after this ISO 8601 time.
   */
  'createdAfter': (string);
  /**
   * Users created before this ISO 8601 time.
   */
  'createdBefore': (string);
  /**
   * Keyset paging: only users whose id is greater than this.
   */
  'idAfter': (number);
  /**
   * Keyset paging: only users whose id is smaller than this.
   */
  'idBefore': (number);
}
