// Original file: /work/main/proto/quarry/repo/v1/repo.proto

import type { Long } from '@grpc/proto-loader';

/**
 * Basic facts about a repository.
 */
export interface GetRepositoryInfoResponse {
  /**
   * Whether the repository exists on disk.
   */
  'exists'?: (boolean);
  /**
   * Whether it has no commits.
   */
  'empty'?: (boolean);
  /**
   * The branch HEAD points at.
   */
  'defaultBranch'?: (string);
  /**
   * Number of branches.
   */
  'branchCount'?: (number | string | Long);
}

/**
 * Basic facts about a repository.
 */
export interface GetRepositoryInfoResponse__Output {
  /**
   * Whether the repository exists on disk.
   */
  'exists': (boolean);
  /**
   * Whether it has no commits.
   */
  'empty': (boolean);
  /**
   * The branch HEAD points at.
   */
  'defaultBranch': (string);
  /**
   * Number of branches.
   */
  'branchCount': (number);
}
