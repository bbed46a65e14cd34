// Original file: /work/main/proto/quarry/repo/v1/repo.proto

import type * as grpc from '@grpc/grpc-js'
import type { MethodDefinition } from '@grpc/proto-loader'
import type { CreateRepositoryRequest as _quarry_repo_v1_CreateRepositoryRequest, CreateRepositoryRequest__Output as _quarry_repo_v1_CreateRepositoryRequest__Output } from '../../../quarry/repo/v1/CreateRepositoryRequest';
import type { CreateRepositoryResponse as _quarry_repo_v1_CreateRepositoryResponse, CreateRepositoryResponse__Output as _quarry_repo_v1_CreateRepositoryResponse__Output } from '../../../quarry/repo/v1/CreateRepositoryResponse';
import type { DeleteRepositoryRequest as _quarry_repo_v1_DeleteRepositoryRequest, DeleteRepositoryRequest__Output as _quarry_repo_v1_DeleteRepositoryRequest__Output } from '../../../quarry/repo/v1/DeleteRepositoryRequest';
import type { DeleteRepositoryResponse as _quarry_repo_v1_DeleteRepositoryResponse, DeleteRepositoryResponse__Output as _quarry_repo_v1_DeleteRepositoryResponse__Output } from '../../../quarry/repo/v1/DeleteRepositoryResponse';
import type { GetRepositoryInfoRequest as _quarry_repo_v1_GetRepositoryInfoRequest, GetRepositoryInfoRequest__Output as _quarry_repo_v1_GetRepositoryInfoRequest__Output } from '../../../quarry/repo/v1/GetRepositoryInfoRequest';
import type { GetRepositoryInfoResponse as _quarry_repo_v1_GetRepositoryInfoResponse, GetRepositoryInfoResponse__Output as _quarry_repo_v1_GetRepositoryInfoResponse__Output } from '../../../quarry/repo/v1/GetRepositoryInfoResponse';
import type { SetDefaultBranchRequest as _quarry_repo_v1_SetDefaultBranchRequest, SetDefaultBranchRequest__Output as _quarry_repo_v1_SetDefaultBranchRequest__Output } from '../../../quarry/repo/v1/SetDefaultBranchRequest';
import type { SetDefaultBranchResponse as _quarry_repo_v1_SetDefaultBranchResponse, SetDefaultBranchResponse__Output as _quarry_repo_v1_SetDefaultBranchResponse__Output } from '../../../quarry/repo/v1/SetDefaultBranchResponse';

/**
 * Git repositories.
 */
export interface RepoServiceClient extends grpc.Client {
  /**
   * Creates a bare repository (idempotent for the same project and path).
   */
  CreateRepository(argument: _quarry_repo_v1_CreateRepositoryRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_quarry_repo_v1_CreateRepositoryResponse__Output>): grpc.ClientUnaryCall;
  CreateRepository(argument: _quarry_repo_v1_CreateRepositoryRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_quarry_repo_v1_CreateRepositoryResponse__Output>): grpc.ClientUnaryCall;
  CreateRepository(argument: _quarry_repo_v1_CreateRepositoryRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_quarry_repo_v1_CreateRepositoryResponse__Output>): grpc.ClientUnaryCall;
  CreateRepository(argument: _quarry_repo_v1_CreateRepositoryRequest, callback: grpc.requestCallback<_quarry_repo_v1_CreateRepositoryResponse__Output>): grpc.ClientUnaryCall;
  /**
   * Creates a bare repository (idempotent for the same project and path).
   */
  createRepository(argument: _quarry_repo_v1_CreateRepositoryRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_quarry_repo_v1_CreateRepositoryResponse__Output>): grpc.ClientUnaryCall;
  createRepository(argument: _quarry_repo_v1_CreateRepositoryRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_quarry_repo_v1_CreateRepositoryResponse__Output>): grpc.ClientUnaryCall;
  createRepository(argument: _quarry_repo_v1_CreateRepositoryRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_quarry_repo_v1_CreateRepositoryResponse__Output>): grpc.ClientUnaryCall;
  createRepository(argument: _quarry_repo_v1_CreateRepositoryRequest, callback: grpc.requestCallback<_quarry_repo_v1_CreateRepositoryResponse__Output>): grpc.ClientUnaryCall;
  
  /**
   * Deletes a repository (missing is not an error).
   */
  DeleteRepository(argument: _quarry_repo_v1_DeleteRepositoryRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_quarry_repo_v1_DeleteRepositoryResponse__Output>): grpc.ClientUnaryCall;
  DeleteRepository(argument: _quarry_repo_v1_DeleteRepositoryRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_quarry_repo_v1_DeleteRepositoryResponse__Output>): grpc.ClientUnaryCall;
  DeleteRepository(argument: _quarry_repo_v1_DeleteRepositoryRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_quarry_repo_v1_DeleteRepositoryResponse__Output>): grpc.ClientUnaryCall;
  DeleteRepository(argument: _quarry_repo_v1_DeleteRepositoryRequest, callback: grpc.requestCallback<_quarry_repo_v1_DeleteRepositoryResponse__Output>): grpc.ClientUnaryCall;
  /**
   * Deletes a repository (missing is not an error).
   */
  deleteRepository(argument: _quarry_repo_v1_DeleteRepositoryRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_quarry_repo_v1_DeleteRepositoryResponse__Output>): grpc.ClientUnaryCall;
  deleteRepository(argument: _quarry_repo_v1_DeleteRepositoryRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_quarry_repo_v1_DeleteRepositoryResponse__Output>): grpc.ClientUnaryCall;
  deleteRepository(argument: _quarry_repo_v1_DeleteRepositoryRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_quarry_repo_v1_DeleteRepositoryResponse__Output>): grpc.ClientUnaryCall;
  deleteRepository(argument: _quarry_repo_v1_DeleteRepositoryRequest, callback: grpc.requestCallback<_quarry_repo_v1_DeleteRepositoryResponse__Output>): grpc.ClientUnaryCall;
  
  /**
   * Reads facts about a repository.
   */
  GetRepositoryInfo(argument: _quarry_repo_v1_GetRepositoryInfoRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_quarry_repo_v1_GetRepositoryInfoResponse__Output>): grpc.ClientUnaryCall;
  GetRepositoryInfo(argument: _quarry_repo_v1_GetRepositoryInfoRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_quarry_repo_v1_GetRepositoryInfoResponse__Output>): grpc.ClientUnaryCall;
  GetRepositoryInfo(argument: _quarry_repo_v1_GetRepositoryInfoRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_quarry_repo_v1_GetRepositoryInfoResponse__Output>): grpc.ClientUnaryCall;
  GetRepositoryInfo(argument: _quarry_repo_v1_GetRepositoryInfoRequest, callback: grpc.requestCallback<_quarry_repo_v1_GetRepositoryInfoResponse__Output>): grpc.ClientUnaryCall;
  /**
   * Reads facts about a repository.
   */
  getRepositoryInfo(argument: _quarry_repo_v1_GetRepositoryInfoRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_quarry_repo_v1_GetRepositoryInfoResponse__Output>): grpc.ClientUnaryCall;
  getRepositoryInfo(argument: _quarry_repo_v1_GetRepositoryInfoRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_quarry_repo_v1_GetRepositoryInfoResponse__Output>): grpc.ClientUnaryCall;
  getRepositoryInfo(argument: _quarry_repo_v1_GetRepositoryInfoRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_quarry_repo_v1_GetRepositoryInfoResponse__Output>): grpc.ClientUnaryCall;
  getRepositoryInfo(argument: _quarry_repo_v1_GetRepositoryInfoRequest, callback: grpc.requestCallback<_quarry_repo_v1_GetRepositoryInfoResponse__Output>): grpc.ClientUnaryCall;
  
  /**
   * Changes the branch HEAD points at.
   */
  SetDefaultBranch(argument: _quarry_repo_v1_SetDefaultBranchRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_quarry_repo_v1_SetDefaultBranchResponse__Output>): grpc.ClientUnaryCall;
  SetDefaultBranch(argument: _quarry_repo_v1_SetDefaultBranchRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_quarry_repo_v1_SetDefaultBranchResponse__Output>): grpc.ClientUnaryCall;
  SetDefaultBranch(argument: _quarry_repo_v1_SetDefaultBranchRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_quarry_repo_v1_SetDefaultBranchResponse__Output>): grpc.ClientUnaryCall;
  SetDefaultBranch(argument: _quarry_repo_v1_SetDefaultBranchRequest, callback: grpc.requestCallback<_quarry_repo_v1_SetDefaultBranchResponse__Output>): grpc.ClientUnaryCall;
  /**
   * Changes the branch HEAD points at.
   */
  setDefaultBranch(argument: _quarry_repo_v1_SetDefaultBranchRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_quarry_repo_v1_SetDefaultBranchResponse__Output>): grpc.ClientUnaryCall;
  setDefaultBranch(argument: _quarry_repo_v1_SetDefaultBranchRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_quarry_repo_v1_SetDefaultBranchResponse__Output>): grpc.ClientUnaryCall;
  setDefaultBranch(argument: _quarry_repo_v1_SetDefaultBranchRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_quarry_repo_v1_SetDefaultBranchResponse__Output>): grpc.ClientUnaryCall;
  setDefaultBranch(argument: _quarry_repo_v1_SetDefaultBranchRequest, callback: grpc.requestCallback<_quarry_repo_v1_SetDefaultBranchResponse__Output>): grpc.ClientUnaryCall;
  
}

/**
 * Git repositories.
 */
export interface RepoServiceHandlers extends grpc.UntypedServiceImplementation {
  /**
   * Creates a bare repository (idempotent for the same project and path).
   */
  CreateRepository: grpc.handleUnaryCall<_quarry_repo_v1_CreateRepositoryRequest__Output, _quarry_repo_v1_CreateRepositoryResponse>;
  
  /**
   * Deletes a repository (missing is not an error).
   */
  DeleteRepository: grpc.handleUnaryCall<_quarry_repo_v1_DeleteRepositoryRequest__Output, _quarry_repo_v1_DeleteRepositoryResponse>;
  
  /**
   * Reads facts about a repository.
   */
  GetRepositoryInfo: grpc.handleUnaryCall<_quarry_repo_v1_GetRepositoryInfoRequest__Output, _quarry_repo_v1_GetRepositoryInfoResponse>;
  
  /**
   * Changes the branch HEAD points at.
   */
  SetDefaultBranch: grpc.handleUnaryCall<_quarry_repo_v1_SetDefaultBranchRequest__Output, _quarry_repo_v1_SetDefaultBranchResponse>;
  
}

export interface RepoServiceDefinition extends grpc.ServiceDefinition {
  CreateRepository: MethodDefinition<_quarry_repo_v1_CreateRepositoryRequest, _quarry_repo_v1_CreateRepositoryResponse, _quarry_repo_v1_CreateRepositoryRequest__Output, _quarry_repo_v1_CreateRepositoryResponse__Output>
  DeleteRepository: MethodDefinition<_quarry_repo_v1_DeleteRepositoryRequest, _quarry_repo_v1_DeleteRepositoryResponse, _quarry_repo_v1_DeleteRepositoryRequest__Output, _quarry_repo_v1_DeleteRepositoryResponse__Output>
  GetRepositoryInfo: MethodDefinition<_quarry_repo_v1_GetRepositoryInfoRequest, _quarry_repo_v1_GetRepositoryInfoResponse, _quarry_repo_v1_GetRepositoryInfoRequest__Output, _quarry_repo_v1_GetRepositoryInfoResponse__Output>
  SetDefaultBranch: MethodDefinition<_quarry_repo_v1_SetDefaultBranchRequest, _quarry_repo_v1_SetDefaultBranchResponse, _quarry_repo_v1_SetDefaultBranchRequest__Output, _quarry_repo_v1_SetDefaultBranchResponse__Output>
}
