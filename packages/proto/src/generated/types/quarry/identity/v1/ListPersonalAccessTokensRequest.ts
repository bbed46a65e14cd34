// Original file: /work/main/proto/quarry/identity/v1/identity.proto

import type { Actor as _quarry_identity_v1_Actor, Actor__Output as _quarry_identity_v1_Actor__Output } from '../../../quarry/identity/v1/Actor';
import type { PageRequest as _quarry_identity_v1_PageRequest, PageRequest__Output as _quarry_identity_v1_PageRequest__Output } from '../../../quarry/identity/v1/PageRequest';
import type { Long } from '@grpc/proto-loader';

/**
 * Lists tokens: administrators see all (or one user's), others their own.
 */
export interface ListPersonalAccessTokensRequest {
  /**
   * Caller.
   */
  'actor'?: (_quarry_identity_v1_Actor | null);
  /**
   * Paging.
   */
  'page'?: (_quarry_identity_v1_PageRequest | null);
  /**
   * Filter by owner (administrators).
   */
  'userId'?: (number | string | Long);
  /**
   * "active" or "inactive".
   */
  'state'?: (string);
  /**
   * Filter by revoked flag.
   */
  'revoked'?: (boolean);
  /**
   * Substring of the name.
   */
  'search'?: (string);
  '_revoked'?: "revoked";
}

/**
 * Lists tokens: administrators see all (or one user's), others their own.
 */
export interface ListPersonalAccessTokensRequest__Output {
  /**
   * Caller.
   */
  'actor': (_quarry_identity_v1_Actor__Output | null);
  /**
   * Paging.
   */
  'page': (_quarry_identity_v1_PageRequest__Output | null);
  /**
   * Filter by owner (administrators).
   */
  'userId': (number);
  /**
   * "active" or "inactive".
   */
  'state': (string);
  /**
   * Filter by revoked flag.
   */
  'revoked'?: (boolean);
  /**
   * Substring of the name.
   */
  'search': (string);
  '_revoked'?: "revoked";
}
