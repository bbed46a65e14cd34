// Original file: /work/main/proto/quarry/identity/v1/identity.proto

import type { PersonalAccessToken as _quarry_identity_v1_PersonalAccessToken, PersonalAccessToken__Output as _quarry_identity_v1_PersonalAccessToken__Output } from '../../../quarry/identity/v1/PersonalAccessToken';
import type { PageInfo as _quarry_identity_v1_PageInfo, PageInfo__Output as _quarry_identity_v1_PageInfo__Output } from '../../../quarry/identity/v1/PageInfo';

/**
 * A page of tokens.
 */
export interface ListPersonalAccessTokensResponse {
  /**
   * Tokens of this page.
   */
  'tokens'?: (_quarry_identity_v1_PersonalAccessToken)[];
  /**
   * Paging totals.
   */
  'pageInfo'?: (_quarry_identity_v1_PageInfo | null);
}

/**
 * A page of tokens.
 */
export interface ListPersonalAccessTokensResponse__Output {
  /**
   * Tokens of this page.
   */
  'tokens': (_quarry_identity_v1_PersonalAccessToken__Output)[];
  /**
   * Paging totals.
   */
  'pageInfo': (_quarry_identity_v1_PageInfo__Output | null);
}
