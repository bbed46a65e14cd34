import type * as grpc from '@grpc/grpc-js';
import type { MessageTypeDefinition } from '@grpc/proto-loader';

import type { CreateRepositoryRequest as _quarry_repo_v1_CreateRepositoryRequest, CreateRepositoryRequest__Output as _quarry_repo_v1_CreateRepositoryRequest__Output } from './quarry/repo/v1/CreateRepositoryRequest';
import type { CreateRepositoryResponse as _quarry_repo_v1_CreateRepositoryResponse, CreateRepositoryResponse__Output as _quarry_repo_v1_CreateRepositoryResponse__Output } from './quarry/repo/v1/CreateRepositoryResponse';
import type { DeleteRepositoryRequest as _quarry_repo_v1_DeleteRepositoryRequest, DeleteRepositoryRequest__Output as _quarry_repo_v1_DeleteRepositoryRequest__Output } from './quarry/repo/v1/DeleteRepositoryRequest';
import type { DeleteRepositoryResponse as _quarry_repo_v1_DeleteRepositoryResponse, DeleteRepositoryResponse__Output as _quarry_repo_v1_DeleteRepositoryResponse__Output } from './quarry/repo/v1/DeleteRepositoryResponse';
import type { GetRepositoryInfoRequest as _quarry_repo_v1_GetRepositoryInfoRequest, GetRepositoryInfoRequest__Output as _quarry_repo_v1_GetRepositoryInfoRequest__Output } from './quarry/repo/v1/GetRepositoryInfoRequest';
import type { GetRepositoryInfoResponse as _quarry_repo_v1_GetRepositoryInfoResponse, GetRepositoryInfoResponse__Output as _quarry_repo_v1_GetRepositoryInfoResponse__Output } from './quarry/repo/v1/GetRepositoryInfoResponse';
import type { Identity as _quarry_repo_v1_Identity, Identity__Output as _quarry_repo_v1_Identity__Output } from './quarry/repo/v1/Identity';
import type { RepoServiceClient as _quarry_repo_v1_RepoServiceClient, RepoServiceDefinition as _quarry_repo_v1_RepoServiceDefinition } from './quarry/repo/v1/RepoService';
import type { SetDefaultBranchRequest as _quarry_repo_v1_SetDefaultBranchRequest, SetDefaultBranchRequest__Output as _quarry_repo_v1_SetDefaultBranchRequest__Output } from './quarry/repo/v1/SetDefaultBranchRequest';
import type { SetDefaultBranchResponse as _quarry_repo_v1_SetDefaultBranchResponse, SetDefaultBranchResponse__Output as _quarry_repo_v1_SetDefaultBranchResponse__Output } from './quarry/repo/v1/SetDefaultBranchResponse';

type SubtypeConstructor<Constructor extends new (...args: any) => any, Subtype> = {
  new(...args: ConstructorParameters<Constructor>): Subtype;
};

export interface ProtoGrpcType {
  quarry: {
    repo: {
      v1: {
        CreateRepositoryRequest: MessageTypeDefinition<_quarry_repo_v1_CreateRepositoryRequest, _quarry_repo_v1_CreateRepositoryRequest__Output>
        CreateRepositoryResponse: MessageTypeDefinition<_quarry_repo_v1_CreateRepositoryResponse, _quarry_repo_v1_CreateRepositoryResponse__Output>
        DeleteRepositoryRequest: MessageTypeDefinition<_quarry_repo_v1_DeleteRepositoryRequest, _quarry_repo_v1_DeleteRepositoryRequest__Output>
        DeleteRepositoryResponse: MessageTypeDefinition<_quarry_repo_v1_DeleteRepositoryResponse, _quarry_repo_v1_DeleteRepositoryResponse__Output>
        GetRepositoryInfoRequest: MessageTypeDefinition<_quarry_repo_v1_GetRepositoryInfoRequest, _quarry_repo_v1_GetRepositoryInfoRequest__Output>
        GetRepositoryInfoResponse: MessageTypeDefinition<_quarry_repo_v1_GetRepositoryInfoResponse, _quarry_repo_v1_GetRepositoryInfoResponse__Output>
        Identity: MessageTypeDefinition<_quarry_repo_v1_Identity, _quarry_repo_v1_Identity__Output>
        /**
         * Git repositories.
         */
        RepoService: SubtypeConstructor<typeof grpc.Client, _quarry_repo_v1_RepoServiceClient> & { service: _quarry_repo_v1_RepoServiceDefinition }
        SetDefaultBranchRequest: MessageTypeDefinition<_quarry_repo_v1_SetDefaultBranchRequest, _quarry_repo_v1_SetDefaultBranchRequest__Output>
        SetDefaultBranchResponse: MessageTypeDefinition<_quarry_repo_v1_SetDefaultBranchResponse, _quarry_repo_v1_SetDefaultBranchResponse__Output>
      }
    }
  }
}

