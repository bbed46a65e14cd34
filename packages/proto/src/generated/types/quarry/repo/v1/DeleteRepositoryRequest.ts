// Original file: /work/main/proto/quarry/repo/v1/repo.proto

import type { Long } from '@grpc/proto-loader';

/**
 * Removes a repository from disk.
 */
export interface DeleteRepositoryRequest {
  /**
   * Owning project id.
   */
  'projectId'?: (number | string | Long);
  /**
   * Repository path relative to the storage root.
   */
  'diskPath'?: (string);
}

/**
 * Removes a repository from disk.
 */
export interface DeleteRepositoryRequest__Output {
  /**
   * Owning project id.
   */
  'projectId': (number);
  /**
   * Repository path relative to the storage root.
   */
  'diskPath': (string);
}
