// Original file: /work/main/proto/quarry/mirror/v1/mirror.proto

import type { Long } from '@grpc/proto-loader';

/**
 * Counts the mirrors of a project.
 */
export interface CountMirrorsRequest {
  /**
   * Project id.
   */
  'projectId'?: (number | string | Long);
}

/**
 * Counts the mirrors of a project.
 */
export interface CountMirrorsRequest__Output {
  /**
   * Project id.
   */
  'projectId': (number);
}
