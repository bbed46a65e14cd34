// Original file: /work/main/proto/quarry/identity/v1/identity.proto

import type { Actor as _quarry_identity_v1_Actor, Actor__Output as _quarry_identity_v1_Actor__Output } from '../../../quarry/identity/v1/Actor';
import type { PageRequest as _quarry_identity_v1_PageRequest, PageRequest__Output as _quarry_identity_v1_PageRequest__Output } from '../../../quarry/identity/v1/PageRequest';
import type { Long } from '@grpc/proto-loader';

/**
 * Lists groups visible to the caller.
 */
export interface ListGroupsRequest {
  /**
   * Caller.
   */
  'actor'?: (_quarry_identity_v1_Actor | null);
  /**
   * Paging.
   */
  'page'?: (_quarry_identity_v1_PageRequest | null);
  /**
   * Substring of name or path.
   */
  'search'?: (string);
  /**
   * "name" (default), "path", "id".
   */
  'orderBy'?: (string);
  /**
   * "asc" (default) or "desc".
   */
  'sort'?: (string);
  /**
   * Only groups the caller owns.
   */
  'owned'?: (boolean);
  /**
   * Minimum caller access level.
   */
  'minAccessLevel'?: (number);
  /**
   * Only top-level groups.
   */
  'topLevelOnly'?: (boolean);
  /**
   * Show all visible groups instead of the caller's memberships.
   */
  'allAvailable'?: (boolean);
  /**
   * Visibility filter.
   */
  'visibility'?: (string);
  /**
   * Group ids to leave out.
   */
  'skipGroups'?: (number | string | Long)[];
  /**
   * Only direct children of this group (subgroups listing); 0 = no filter.
   */
  'parentId'?: (number | string | Long);
  /**
   * Keyset paging: only groups whose id is greater than this.
   */
  'idAfter'?: (number | string | Long);
  /**
   * Keyset paging: only groups whose id is smaller than this.
   */
  'idBefore'?: (number | string | Long);
  '_allAvailable'?: "allAvailable";
}

/**
 * Lists groups visible to the caller.
 */
export interface ListGroupsRequest__Output {
  /**
   * Caller.
   */
  'actor': (_quarry_identity_v1_Actor__Output | null);
  /**
   * Paging.
   */
  'page': (_quarry_identity_v1_PageRequest__Output | null);
  /**
   * Substring of name or path.
   */
  'search': (string);
  /**
   * "name" (default), "path", "id".
   */
  'orderBy': (string);
  /**
   * "asc" (default) or "desc".
   */
  'sort': (string);
  /**
   * Only groups the caller owns.
   */
  'owned': (boolean);
  /**
   * Minimum caller access level.
   */
  'minAccessLevel': (number);
  /**
   * Only top-level groups.
   */
  'topLevelOnly': (boolean);
  /**
   * Show all visible groups instead of the caller's memberships.
   */
  'allAvailable'?: (boolean);
  /**
   * Visibility filter.
   */
  'visibility': (string);
  /**
   * Group ids to leave out.
   */
  'skipGroups': (number)[];
  /**
   * Only direct children of this group (subgroups listing); 0 = no filter.
   */
  'parentId': (number);
  /**
   * Keyset paging: only groups whose id is greater than this.
   */
  'idAfter': (number);
  /**
   * Keyset paging: only groups whose id is smaller than this.
   */
  'idBefore': (number);
  '_allAvailable'?: "allAvailable";
}
