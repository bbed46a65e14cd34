// Original file: /work/main/proto/quarry/identity/v1/identity.proto

import type { Actor as _quarry_identity_v1_Actor, Actor__Output as _quarry_identity_v1_Actor__Output } from '../../../quarry/identity/v1/Actor';
import type { MemberSource as _quarry_identity_v1_MemberSource, MemberSource__Output as _quarry_identity_v1_MemberSource__Output } from '../../../quarry/identity/v1/MemberSource';
import type { PageRequest as _quarry_identity_v1_PageRequest, PageRequest__Output as _quarry_identity_v1_PageRequest__Output } from '../../../quarry/identity/v1/PageRequest';
import type { Long } from '@grpc/proto-loader';

/**
 * Lists members of a project or group.
 */
export interface ListMembersRequest {
  /**
   * Caller.
   */
  'actor'?: (_quarry_identity_v1_Actor | null);
  /**
   * The project or group.
   */
  'source'?: (_quarry_identity_v1_MemberSource | null);
  /**
   * Paging.
   */
  'page'?: (_quarry_identity_v1_PageRequest | null);
  /**
   * Substring of username or name.
   */
  'query'?: (string);
  /**
   * Include members inherited from ancestor groups (the /members/all variant).
   */
  'includeInherited'?: (boolean);
  /**
   * Only these user ids.
   */
  'userIds'?: (number | string | Long)[];
}

/**
 * Lists members of a project or group.
 */
export interface ListMembersRequest__Output {
  /**
   * Caller.
   */
  'actor': (_quarry_identity_v1_Actor__Output | null);
  /**
   * The project or group.
   */
  'source': (_quarry_identity_v1_MemberSource__Output | null);
  /**
   * Paging.
   */
  'page': (_quarry_identity_v1_PageRequest__Output | null);
  /**
   * Substring of username or name.
   */
  'query': (string);
  /**
   * Include members inherited from ancestor groups (the /members/all variant).
   */
  'includeInherited': (boolean);
  /**
   * Only these user ids.
   */
  'userIds': (number)[];
}
