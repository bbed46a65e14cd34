// Original file: /work/main/proto/quarry/identity/v1/identity.proto

import type { Project as _quarry_identity_v1_Project, Project__Output as _quarry_identity_v1_Project__Output } from '../../../quarry/identity/v1/Project';
import type { PageInfo as _quarry_identity_v1_PageInfo, PageInfo__Output as _quarry_identity_v1_PageInfo__Output } from '../../../quarry/identity/v1/PageInfo';

/**
 * A page of projects.
 */
export interface ListProjectsResponse {
  /**
   * Projects of this page.
   */
  'projects'?: (_quarry_identity_v1_Project)[];
  /**
   * Paging totals.
   */
  'pageInfo'?: (_quarry_identity_v1_PageInfo | null);
}

/**
 * A page of projects.
 */
export interface ListProjectsResponse__Output {
  /**
   * Projects of this page.
   */
  'projects': (_quarry_identity_v1_Project__Output)[];
  /**
   * Paging totals.
   */
  'pageInfo': (_quarry_identity_v1_PageInfo__Output | null);
}
