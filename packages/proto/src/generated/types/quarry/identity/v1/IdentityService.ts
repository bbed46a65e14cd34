// Original file: /work/main/proto/quarry/identity/v1/identity.proto

import type * as grpc from '@grpc/grpc-js'
import type { MethodDefinition } from '@grpc/proto-loader'
import type { AddMemberRequest as _quarry_identity_v1_AddMemberRequest, AddMemberRequest__Output as _quarry_identity_v1_AddMemberRequest__Output } from '../../../quarry/identity/v1/AddMemberRequest';
import type { AuthenticateRequest as _quarry_identity_v1_AuthenticateRequest, AuthenticateRequest__Output as _quarry_identity_v1_AuthenticateRequest__Output } from '../../../quarry/identity/v1/AuthenticateRequest';
import type { AuthenticateResponse as _quarry_identity_v1_AuthenticateResponse, AuthenticateResponse__Output as _quarry_identity_v1_AuthenticateResponse__Output } from '../../../quarry/identity/v1/AuthenticateResponse';
import type { AuthorizeRequest as _quarry_identity_v1_AuthorizeRequest, AuthorizeRequest__Output as _quarry_identity_v1_AuthorizeRequest__Output } from '../../../quarry/identity/v1/AuthorizeRequest';
import type { AuthorizeResponse as _quarry_identity_v1_AuthorizeResponse, AuthorizeResponse__Output as _quarry_identity_v1_AuthorizeResponse__Output } from '../../../quarry/identity/v1/AuthorizeResponse';
import type { CreateGroupRequest as _quarry_identity_v1_CreateGroupRequest, CreateGroupRequest__Output as _quarry_identity_v1_CreateGroupRequest__Output } from '../../../quarry/identity/v1/CreateGroupRequest';
import type { CreatePersonalAccessTokenRequest as _quarry_identity_v1_CreatePersonalAccessTokenRequest, CreatePersonalAccessTokenRequest__Output as _quarry_identity_v1_CreatePersonalAccessTokenRequest__Output } from '../../../quarry/identity/v1/CreatePersonalAccessTokenRequest';
import type { CreateProjectRequest as _quarry_identity_v1_CreateProjectRequest, CreateProjectRequest__Output as _quarry_identity_v1_CreateProjectRequest__Output } from '../../../quarry/identity/v1/CreateProjectRequest';
import type { CreateUserRequest as _quarry_identity_v1_CreateUserRequest, CreateUserRequest__Output as _quarry_identity_v1_CreateUserRequest__Output } from '../../../quarry/identity/v1/CreateUserRequest';
import type { DeleteGroupRequest as _quarry_identity_v1_DeleteGroupRequest, DeleteGroupRequest__Output as _quarry_identity_v1_DeleteGroupRequest__Output } from '../../../quarry/identity/v1/DeleteGroupRequest';
import type { DeleteProjectRequest as _quarry_identity_v1_DeleteProjectRequest, DeleteProjectRequest__Output as _quarry_identity_v1_DeleteProjectRequest__Output } from '../../../quarry/identity/v1/DeleteProjectRequest';
import type { DeleteUserRequest as _quarry_identity_v1_DeleteUserRequest, DeleteUserRequest__Output as _quarry_identity_v1_DeleteUserRequest__Output } from '../../../quarry/identity/v1/DeleteUserRequest';
import type { Empty as _quarry_identity_v1_Empty, Empty__Output as _quarry_identity_v1_Empty__Output } from '../../../quarry/identity/v1/Empty';
import type { EnsureRootUserRequest as _quarry_identity_v1_EnsureRootUserRequest, EnsureRootUserRequest__Output as _quarry_identity_v1_EnsureRootUserRequest__Output } from '../../../quarry/identity/v1/EnsureRootUserRequest';
import type { EnsureRootUserResponse as _quarry_identity_v1_EnsureRootUserResponse, EnsureRootUserResponse__Output as _quarry_identity_v1_EnsureRootUserResponse__Output } from '../../../quarry/identity/v1/EnsureRootUserResponse';
import type { GetGroupRequest as _quarry_identity_v1_GetGroupRequest, GetGroupRequest__Output as _quarry_identity_v1_GetGroupRequest__Output } from '../../../quarry/identity/v1/GetGroupRequest';
import type { GetMemberRequest as _quarry_identity_v1_GetMemberRequest, GetMemberRequest__Output as _quarry_identity_v1_GetMemberRequest__Output } from '../../../quarry/identity/v1/GetMemberRequest';
import type { GetPersonalAccessTokenRequest as _quarry_identity_v1_GetPersonalAccessTokenRequest, GetPersonalAccessTokenRequest__Output as _quarry_identity_v1_GetPersonalAccessTokenRequest__Output } from '../../../quarry/identity/v1/GetPersonalAccessTokenRequest';
import type { GetProjectRequest as _quarry_identity_v1_GetProjectRequest, GetProjectRequest__Output as _quarry_identity_v1_GetProjectRequest__Output } from '../../../quarry/identity/v1/GetProjectRequest';
import type { GetUserRequest as _quarry_identity_v1_GetUserRequest, GetUserRequest__Output as _quarry_identity_v1_GetUserRequest__Output } from '../../../quarry/identity/v1/GetUserRequest';
import type { Group as _quarry_identity_v1_Group, Group__Output as _quarry_identity_v1_Group__Output } from '../../../quarry/identity/v1/Group';
import type { ListGroupsRequest as _quarry_identity_v1_ListGroupsRequest, ListGroupsRequest__Output as _quarry_identity_v1_ListGroupsRequest__Output } from '../../../quarry/identity/v1/ListGroupsRequest';
import type { ListGroupsResponse as _quarry_identity_v1_ListGroupsResponse, ListGroupsResponse__Output as _quarry_identity_v1_ListGroupsResponse__Output } from '../../../quarry/identity/v1/ListGroupsResponse';
import type { ListMembersRequest as _quarry_identity_v1_ListMembersRequest, ListMembersRequest__Output as _quarry_identity_v1_ListMembersRequest__Output } from '../../../quarry/identity/v1/ListMembersRequest';
import type { ListMembersResponse as _quarry_identity_v1_ListMembersResponse, ListMembersResponse__Output as _quarry_identity_v1_ListMembersResponse__Output } from '../../../quarry/identity/v1/ListMembersResponse';
import type { ListPersonalAccessTokensRequest as _quarry_identity_v1_ListPersonalAccessTokensRequest, ListPersonalAccessTokensRequest__Output as _quarry_identity_v1_ListPersonalAccessTokensRequest__Output } from '../../../quarry/identity/v1/ListPersonalAccessTokensRequest';
import type { ListPersonalAccessTokensResponse as _quarry_identity_v1_ListPersonalAccessTokensResponse, ListPersonalAccessTokensResponse__Output as _quarry_identity_v1_ListPersonalAccessTokensResponse__Output } from '../../../quarry/identity/v1/ListPersonalAccessTokensResponse';
import type { ListProjectsRequest as _quarry_identity_v1_ListProjectsRequest, ListProjectsRequest__Output as _quarry_identity_v1_ListProjectsRequest__Output } from '../../../quarry/identity/v1/ListProjectsRequest';
import type { ListProjectsResponse as _quarry_identity_v1_ListProjectsResponse, ListProjectsResponse__Output as _quarry_identity_v1_ListProjectsResponse__Output } from '../../../quarry/identity/v1/ListProjectsResponse';
import type { ListUsersRequest as _quarry_identity_v1_ListUsersRequest, ListUsersRequest__Output as _quarry_identity_v1_ListUsersRequest__Output } from '../../../quarry/identity/v1/ListUsersRequest';
import type { ListUsersResponse as _quarry_identity_v1_ListUsersResponse, ListUsersResponse__Output as _quarry_identity_v1_ListUsersResponse__Output } from '../../../quarry/identity/v1/ListUsersResponse';
import type { Member as _quarry_identity_v1_Member, Member__Output as _quarry_identity_v1_Member__Output } from '../../../quarry/identity/v1/Member';
import type { PersonalAccessToken as _quarry_identity_v1_PersonalAccessToken, PersonalAccessToken__Output as _quarry_identity_v1_PersonalAccessToken__Output } from '../../../quarry/identity/v1/PersonalAccessToken';
import type { Project as _quarry_identity_v1_Project, Project__Output as _quarry_identity_v1_Project__Output } from '../../../quarry/identity/v1/Project';
import type { RemoveMemberRequest as _quarry_identity_v1_RemoveMemberRequest, RemoveMemberRequest__Output as _quarry_identity_v1_RemoveMemberRequest__Output } from '../../../quarry/identity/v1/RemoveMemberRequest';
import type { RevokePersonalAccessTokenRequest as _quarry_identity_v1_RevokePersonalAccessTokenRequest, RevokePersonalAccessTokenRequest__Output as _quarry_identity_v1_RevokePersonalAccessTokenRequest__Output } from '../../../quarry/identity/v1/RevokePersonalAccessTokenRequest';
import type { UpdateGroupRequest as _quarry_identity_v1_UpdateGroupRequest, UpdateGroupRequest__Output as _quarry_identity_v1_UpdateGroupRequest__Output } from '../../../quarry/identity/v1/UpdateGroupRequest';
import type { UpdateMemberRequest as _quarry_identity_v1_UpdateMemberRequest, UpdateMemberRequest__Output as _quarry_identity_v1_UpdateMemberRequest__Output } from '../../../quarry/identity/v1/UpdateMemberRequest';
import type { UpdateProjectRequest as _quarry_identity_v1_UpdateProjectRequest, UpdateProjectRequest__Output as _quarry_identity_v1_UpdateProjectRequest__Output } from '../../../quarry/identity/v1/UpdateProjectRequest';
import type { UpdateUserRequest as _quarry_identity_v1_UpdateUserRequest, UpdateUserRequest__Output as _quarry_identity_v1_UpdateUserRequest__Output } from '../../../quarry/identity/v1/UpdateUserRequest';
import type { User as _quarry_identity_v1_User, User__Output as _quarry_identity_v1_User__Output } from '../../../quarry/identity/v1/User';

/**
 * Users, tokens, groups, projects, memberships and authorization.
 */
export interface IdentityServiceClient extends grpc.Client {
  /**
   * Adds a member.
   */
  AddMember(argument: _quarry_identity_v1_AddMemberRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_quarry_identity_v1_Member__Output>): grpc.ClientUnaryCall;
  AddMember(argument: _quarry_identity_v1_AddMemberRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_quarry_identity_v1_Member__Output>): grpc.ClientUnaryCall;
  AddMember(argument: _quarry_identity_v1_AddMemberRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_quarry_identity_v1_Member__Output>): grpc.ClientUnaryCall;
  AddMember(argument: _quarry_identity_v1_AddMemberRequest, callback: grpc.requestCallback<_quarry_identity_v1_Member__Output>): grpc.ClientUnaryCall;
  /**
   * Adds a member.
   */
  addMember(argument: _quarry_identity_v1_AddMemberRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_quarry_identity_v1_Member__Output>): grpc.ClientUnaryCall;
  addMember(argument: _quarry_identity_v1_AddMemberRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_quarry_identity_v1_Member__Output>): grpc.ClientUnaryCall;
  addMember(argument: _quarry_identity_v1_AddMemberRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_quarry_identity_v1_Member__Output>): grpc.ClientUnaryCall;
  addMember(argument: _quarry_identity_v1_AddMemberRequest, callback: grpc.requestCallback<_quarry_identity_v1_Member__Output>): grpc.ClientUnaryCall;
  
  /**
   * Resolves a token; UNAUTHENTICATED when unknown, revoked, expired or its user blocked.
   */
  Authenticate(argument: _quarry_identity_v1_AuthenticateRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_quarry_identity_v1_AuthenticateResponse__Output>): grpc.ClientUnaryCall;
  Authenticate(argument: _quarry_identity_v1_AuthenticateRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_quarry_identity_v1_AuthenticateResponse__Output>): grpc.ClientUnaryCall;
  Authenticate(argument: _quarry_identity_v1_AuthenticateRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_quarry_identity_v1_AuthenticateResponse__Output>): grpc.ClientUnaryCall;
  Authenticate(argument: _quarry_identity_v1_AuthenticateRequest, callback: grpc.requestCallback<_quarry_identity_v1_AuthenticateResponse__Output>): grpc.ClientUnaryCall;
  /**
   * Resolves a token; UNAUTHENTICATED when unknown, revoked, expired or its user blocked.
   */
  authenticate(argument: _quarry_identity_v1_AuthenticateRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_quarry_identity_v1_AuthenticateResponse__Output>): grpc.ClientUnaryCall;
  authenticate(argument: _quarry_identity_v1_AuthenticateRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_quarry_identity_v1_AuthenticateResponse__Output>): grpc.ClientUnaryCall;
  authenticate(argument: _quarry_identity_v1_AuthenticateRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_quarry_identity_v1_AuthenticateResponse__Output>): grpc.ClientUnaryCall;
  authenticate(argument: _quarry_identity_v1_AuthenticateRequest, callback: grpc.requestCallback<_quarry_identity_v1_AuthenticateResponse__Output>): grpc.ClientUnaryCall;
  
  /**
   * Answers a permission question for another service's resource.
   */
  Authorize(argument: _quarry_identity_v1_AuthorizeRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_quarry_identity_v1_AuthorizeResponse__Output>): grpc.ClientUnaryCall;
  Authorize(argument: _quarry_identity_v1_AuthorizeRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_quarry_identity_v1_AuthorizeResponse__Output>): grpc.ClientUnaryCall;
  Authorize(argument: _quarry_identity_v1_AuthorizeRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_quarry_identity_v1_AuthorizeResponse__Output>): grpc.ClientUnaryCall;
  Authorize(argument: _quarry_identity_v1_AuthorizeRequest, callback: grpc.requestCallback<_quarry_identity_v1_AuthorizeResponse__Output>): grpc.ClientUnaryCall;
  /**
   * Answers a permission question for another service's resource.
   */
  authorize(argument: _quarry_identity_v1_AuthorizeRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_quarry_identity_v1_AuthorizeResponse__Output>): grpc.ClientUnaryCall;
  authorize(argument: _quarry_identity_v1_AuthorizeRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_quarry_identity_v1_AuthorizeResponse__Output>): grpc.ClientUnaryCall;
  authorize(argument: _quarry_identity_v1_AuthorizeRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_quarry_identity_v1_AuthorizeResponse__Output>): grpc.ClientUnaryCall;
  authorize(argument: _quarry_identity_v1_AuthorizeRequest, callback: grpc.requestCallback<_quarry_identity_v1_AuthorizeResponse__Output>): grpc.ClientUnaryCall;
  
  /**
   * Creates a group.
   */
  CreateGroup(argument: _quarry_identity_v1_CreateGroupRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_quarry_identity_v1_Group__Output>): grpc.ClientUnaryCall;
  CreateGroup(argument: _quarry_identity_v1_CreateGroupRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_quarry_identity_v1_Group__Output>): grpc.ClientUnaryCall;
  CreateGroup(argument: _quarry_identity_v1_CreateGroupRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_quarry_identity_v1_Group__Output>): grpc.ClientUnaryCall;
  CreateGroup(argument: _quarry_identity_v1_CreateGroupRequest, callback: grpc.requestCallback<_quarry_identity_v1_Group__Output>): grpc.ClientUnaryCall;
  /**
   * Creates a group.
   */
  createGroup(argument: _quarry_identity_v1_CreateGroupRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_quarry_identity_v1_Group__Output>): grpc.ClientUnaryCall;
  createGroup(argument: _quarry_identity_v1_CreateGroupRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_quarry_identity_v1_Group__Output>): grpc.ClientUnaryCall;
  createGroup(argument: _quarry_identity_v1_CreateGroupRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_quarry_identity_v1_Group__Output>): grpc.ClientUnaryCall;
  createGroup(argument: _quarry_identity_v1_CreateGroupRequest, callback: grpc.requestCallback<_quarry_identity_v1_Group__Output>): grpc.ClientUnaryCall;
  
  /**
   * Creates a personal access token.
   */
  CreatePersonalAccessToken(argument: _quarry_identity_v1_CreatePersonalAccessTokenRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_quarry_identity_v1_PersonalAccessToken__Output>): grpc.ClientUnaryCall;
  CreatePersonalAccessToken(argument: _quarry_identity_v1_CreatePersonalAccessTokenRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_quarry_identity_v1_PersonalAccessToken__Output>): grpc.ClientUnaryCall;
  CreatePersonalAccessToken(argument: _quarry_identity_v1_CreatePersonalAccessTokenRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_quarry_identity_v1_PersonalAccessToken__Output>): grpc.ClientUnaryCall;
  CreatePersonalAccessToken(argument: _quarry_identity_v1_CreatePersonalAccessTokenRequest, callback: grpc.requestCallback<_quarry_identity_v1_PersonalAccessToken__Output>): grpc.ClientUnaryCall;
  /**
   * Creates a personal access token.
   */
  createPersonalAccessToken(argument: _quarry_identity_v1_CreatePersonalAccessTokenRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_quarry_identity_v1_PersonalAccessToken__Output>): grpc.ClientUnaryCall;
  createPersonalAccessToken(argument: _quarry_identity_v1_CreatePersonalAccessTokenRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_quarry_identity_v1_PersonalAccessToken__Output>): grpc.ClientUnaryCall;
  createPersonalAccessToken(argument: _quarry_identity_v1_CreatePersonalAccessTokenRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_quarry_identity_v1_PersonalAccessToken__Output>): grpc.ClientUnaryCall;
  createPersonalAccessToken(argument: _quarry_identity_v1_CreatePersonalAccessTokenRequest, callback: grpc.requestCallback<_quarry_identity_v1_PersonalAccessToken__Output>): grpc.ClientUnaryCall;
  
  /**
   * Creates a project and its repository.
   */
  CreateProject(argument: _quarry_identity_v1_CreateProjectRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_quarry_identity_v1_Project__Output>): grpc.ClientUnaryCall;
  CreateProject(argument: _quarry_identity_v1_CreateProjectRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_quarry_identity_v1_Project__Output>): grpc.ClientUnaryCall;
  CreateProject(argument: _quarry_identity_v1_CreateProjectRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_quarry_identity_v1_Project__Output>): grpc.ClientUnaryCall;
  CreateProject(argument: _quarry_identity_v1_CreateProjectRequest, callback: grpc.requestCallback<_quarry_identity_v1_Project__Output>): grpc.ClientUnaryCall;
  /**
   * Creates a project and its repository.
   */
  createProject(argument: _quarry_identity_v1_CreateProjectRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_quarry_identity_v1_Project__Output>): grpc.ClientUnaryCall;
  createProject(argument: _quarry_identity_v1_CreateProjectRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_quarry_identity_v1_Project__Output>): grpc.ClientUnaryCall;
  createProject(argument: _quarry_identity_v1_CreateProjectRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_quarry_identity_v1_Project__Output>): grpc.ClientUnaryCall;
  createProject(argument: _quarry_identity_v1_CreateProjectRequest, callback: grpc.requestCallback<_quarry_identity_v1_Project__Output>): grpc.ClientUnaryCall;
  
  /**
   * Creates a user.
   */
  CreateUser(argument: _quarry_identity_v1_CreateUserRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_quarry_identity_v1_User__Output>): grpc.ClientUnaryCall;
  CreateUser(argument: _quarry_identity_v1_CreateUserRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_quarry_identity_v1_User__Output>): grpc.ClientUnaryCall;
  CreateUser(argument: _quarry_identity_v1_CreateUserRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_quarry_identity_v1_User__Output>): grpc.ClientUnaryCall;
  CreateUser(argument: _quarry_identity_v1_CreateUserRequest, callback: grpc.requestCallback<_quarry_identity_v1_User__Output>): grpc.ClientUnaryCall;
  /**
   * Creates a user.
   */
  createUser(argument: _quarry_identity_v1_CreateUserRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_quarry_identity_v1_User__Output>): grpc.ClientUnaryCall;
  createUser(argument: _quarry_identity_v1_CreateUserRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_quarry_identity_v1_User__Output>): grpc.ClientUnaryCall;
  createUser(argument: _quarry_identity_v1_CreateUserRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_quarry_identity_v1_User__Output>): grpc.ClientUnaryCall;
  createUser(argument: _quarry_identity_v1_CreateUserRequest, callback: grpc.requestCallback<_quarry_identity_v1_User__Output>): grpc.ClientUnaryCall;
  
  /**
   * Deletes a group.
   */
  DeleteGroup(argument: _quarry_identity_v1_DeleteGroupRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_quarry_identity_v1_Empty__Output>): grpc.ClientUnaryCall;
  DeleteGroup(argument: _quarry_identity_v1_DeleteGroupRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_quarry_identity_v1_Empty__Output>): grpc.ClientUnaryCall;
  DeleteGroup(argument: _quarry_identity_v1_DeleteGroupRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_quarry_identity_v1_Empty__Output>): grpc.ClientUnaryCall;
  DeleteGroup(argument: _quarry_identity_v1_DeleteGroupRequest, callback: grpc.requestCallback<_quarry_identity_v1_Empty__Output>): grpc.ClientUnaryCall;
  /**
   * Deletes a group.
   */
  deleteGroup(argument: _quarry_identity_v1_DeleteGroupRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_quarry_identity_v1_Empty__Output>): grpc.ClientUnaryCall;
  deleteGroup(argument: _quarry_identity_v1_DeleteGroupRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_quarry_identity_v1_Empty__Output>): grpc.ClientUnaryCall;
  deleteGroup(argument: _quarry_identity_v1_DeleteGroupRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_quarry_identity_v1_Empty__Output>): grpc.ClientUnaryCall;
  deleteGroup(argument: _quarry_identity_v1_DeleteGroupRequest, callback: grpc.requestCallback<_quarry_identity_v1_Empty__Output>): grpc.ClientUnaryCall;
  
  /**
   * Deletes a project and its repository.
   */
  DeleteProject(argument: _quarry_identity_v1_DeleteProjectRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_quarry_identity_v1_Empty__Output>): grpc.ClientUnaryCall;
  DeleteProject(argument: _quarry_identity_v1_DeleteProjectRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_quarry_identity_v1_Empty__Output>): grpc.ClientUnaryCall;
  DeleteProject(argument: _quarry_identity_v1_DeleteProjectRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_quarry_identity_v1_Empty__Output>): grpc.ClientUnaryCall;
  DeleteProject(argument: _quarry_identity_v1_DeleteProjectRequest, callback: grpc.requestCallback<_quarry_identity_v1_Empty__Output>): grpc.ClientUnaryCall;
  /**
   * Deletes a project and its repository.
   */
  deleteProject(argument: _quarry_identity_v1_DeleteProjectRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_quarry_identity_v1_Empty__Output>): grpc.ClientUnaryCall;
  deleteProject(argument: _quarry_identity_v1_DeleteProjectRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_quarry_identity_v1_Empty__Output>): grpc.ClientUnaryCall;
  deleteProject(argument: _quarry_identity_v1_DeleteProjectRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_quarry_identity_v1_Empty__Output>): grpc.ClientUnaryCall;
  deleteProject(argument: _quarry_identity_v1_DeleteProjectRequest, callback: grpc.requestCallback<_quarry_identity_v1_Empty__Output>): grpc.ClientUnaryCall;
  
  /**
   * Deletes a user.
   */
  DeleteUser(argument: _quarry_identity_v1_DeleteUserRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_quarry_identity_v1_Empty__Output>): grpc.ClientUnaryCall;
  DeleteUser(argument: _quarry_identity_v1_DeleteUserRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_quarry_identity_v1_Empty__Output>): grpc.ClientUnaryCall;
  DeleteUser(argument: _quarry_identity_v1_DeleteUserRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_quarry_identity_v1_Empty__Output>): grpc.ClientUnaryCall;
  DeleteUser(argument: _quarry_identity_v1_DeleteUserRequest, callback: grpc.requestCallback<_quarry_identity_v1_Empty__Output>): grpc.ClientUnaryCall;
  /**
   * Deletes a user.
   */
  deleteUser(argument: _quarry_identity_v1_DeleteUserRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_quarry_identity_v1_Empty__Output>): grpc.ClientUnaryCall;
  deleteUser(argument: _quarry_identity_v1_DeleteUserRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_quarry_identity_v1_Empty__Output>): grpc.ClientUnaryCall;
  deleteUser(argument: _quarry_identity_v1_DeleteUserRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_quarry_identity_v1_Empty__Output>): grpc.ClientUnaryCall;
  deleteUser(argument: _quarry_identity_v1_DeleteUserRequest, callback: grpc.requestCallback<_quarry_identity_v1_Empty__Output>): grpc.ClientUnaryCall;
  
  /**
   * Creates root and its first token when the instance is new.
   */
  EnsureRootUser(argument: _quarry_identity_v1_EnsureRootUserRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_quarry_identity_v1_EnsureRootUserResponse__Output>): grpc.ClientUnaryCall;
  EnsureRootUser(argument: _quarry_identity_v1_EnsureRootUserRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_quarry_identity_v1_EnsureRootUserResponse__Output>): grpc.ClientUnaryCall;
  EnsureRootUser(argument: _quarry_identity_v1_EnsureRootUserRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_quarry_identity_v1_EnsureRootUserResponse__Output>): grpc.ClientUnaryCall;
  EnsureRootUser(argument: _quarry_identity_v1_EnsureRootUserRequest, callback: grpc.requestCallback<_quarry_identity_v1_EnsureRootUserResponse__Output>): grpc.ClientUnaryCall;
  /**
   * Creates root and its first token when the instance is new.
   */
  ensureRootUser(argument: _quarry_identity_v1_EnsureRootUserRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_quarry_identity_v1_EnsureRootUserResponse__Output>): grpc.ClientUnaryCall;
  ensureRootUser(argument: _quarry_identity_v1_EnsureRootUserRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_quarry_identity_v1_EnsureRootUserResponse__Output>): grpc.ClientUnaryCall;
  ensureRootUser(argument: _quarry_identity_v1_EnsureRootUserRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_quarry_identity_v1_EnsureRootUserResponse__Output>): grpc.ClientUnaryCall;
  ensureRootUser(argument: _quarry_identity_v1_EnsureRootUserRequest, callback: grpc.requestCallback<_quarry_identity_v1_EnsureRootUserResponse__Output>): grpc.ClientUnaryCall;
  
  /**
   * Reads a group.
   */
  GetGroup(argument: _quarry_identity_v1_GetGroupRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_quarry_identity_v1_Group__Output>): grpc.ClientUnaryCall;
  GetGroup(argument: _quarry_identity_v1_GetGroupRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_quarry_identity_v1_Group__Output>): grpc.ClientUnaryCall;
  GetGroup(argument: _quarry_identity_v1_GetGroupRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_quarry_identity_v1_Group__Output>): grpc.ClientUnaryCall;
  GetGroup(argument: _quarry_identity_v1_GetGroupRequest, callback: grpc.requestCallback<_quarry_identity_v1_Group__Output>): grpc.ClientUnaryCall;
  /**
   * Reads a group.
   */
  getGroup(argument: _quarry_identity_v1_GetGroupRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_quarry_identity_v1_Group__Output>): grpc.ClientUnaryCall;
  getGroup(argument: _quarry_identity_v1_GetGroupRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_quarry_identity_v1_Group__Output>): grpc.ClientUnaryCall;
  getGroup(argument: _quarry_identity_v1_GetGroupRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_quarry_identity_v1_Group__Output>): grpc.ClientUnaryCall;
  getGroup(argument: _quarry_identity_v1_GetGroupRequest, callback: grpc.requestCallback<_quarry_identity_v1_Group__Output>): grpc.ClientUnaryCall;
  
  /**
   * Reads a member.
   */
  GetMember(argument: _quarry_identity_v1_GetMemberRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_quarry_identity_v1_Member__Output>): grpc.ClientUnaryCall;
  GetMember(argument: _quarry_identity_v1_GetMemberRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_quarry_identity_v1_Member__Output>): grpc.ClientUnaryCall;
  GetMember(argument: _quarry_identity_v1_GetMemberRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_quarry_identity_v1_Member__Output>): grpc.ClientUnaryCall;
  GetMember(argument: _quarry_identity_v1_GetMemberRequest, callback: grpc.requestCallback<_quarry_identity_v1_Member__Output>): grpc.ClientUnaryCall;
  /**
   * Reads a member.
   */
  getMember(argument: _quarry_identity_v1_GetMemberRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_quarry_identity_v1_Member__Output>): grpc.ClientUnaryCall;
  getMember(argument: _quarry_identity_v1_GetMemberRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_quarry_identity_v1_Member__Output>): grpc.ClientUnaryCall;
  getMember(argument: _quarry_identity_v1_GetMemberRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_quarry_identity_v1_Member__Output>): grpc.ClientUnaryCall;
  getMember(argument: _quarry_identity_v1_GetMemberRequest, callback: grpc.requestCallback<_quarry_identity_v1_Member__Output>): grpc.ClientUnaryCall;
  
  /**
   * Reads one personal access token.
   */
  GetPersonalAccessToken(argument: _quarry_identity_v1_GetPersonalAccessTokenRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_quarry_identity_v1_PersonalAccessToken__Output>): grpc.ClientUnaryCall;
  GetPersonalAccessToken(argument: _quarry_identity_v1_GetPersonalAccessTokenRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_quarry_identity_v1_PersonalAccessToken__Output>): grpc.ClientUnaryCall;
  GetPersonalAccessToken(argument: _quarry_identity_v1_GetPersonalAccessTokenRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_quarry_identity_v1_PersonalAccessToken__Output>): grpc.ClientUnaryCall;
  GetPersonalAccessToken(argument: _quarry_identity_v1_GetPersonalAccessTokenRequest, callback: grpc.requestCallback<_quarry_identity_v1_PersonalAccessToken__Output>): grpc.ClientUnaryCall;
  /**
   * Reads one personal access token.
   */
  getPersonalAccessToken(argument: _quarry_identity_v1_GetPersonalAccessTokenRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_quarry_identity_v1_PersonalAccessToken__Output>): grpc.ClientUnaryCall;
  getPersonalAccessToken(argument: _quarry_identity_v1_GetPersonalAccessTokenRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_quarry_identity_v1_PersonalAccessToken__Output>): grpc.ClientUnaryCall;
  getPersonalAccessToken(argument: _quarry_identity_v1_GetPersonalAccessTokenRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_quarry_identity_v1_PersonalAccessToken__Output>): grpc.ClientUnaryCall;
  getPersonalAccessToken(argument: _quarry_identity_v1_GetPersonalAccessTokenRequest, callback: grpc.requestCallback<_quarry_identity_v1_PersonalAccessToken__Output>): grpc.ClientUnaryCall;
  
  /**
   * Reads a project.
   */
  GetProject(argument: _quarry_identity_v1_GetProjectRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_quarry_identity_v1_Project__Output>): grpc.ClientUnaryCall;
  GetProject(argument: _quarry_identity_v1_GetProjectRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_quarry_identity_v1_Project__Output>): grpc.ClientUnaryCall;
  GetProject(argument: _quarry_identity_v1_GetProjectRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_quarry_identity_v1_Project__Output>): grpc.ClientUnaryCall;
  GetProject(argument: _quarry_identity_v1_GetProjectRequest, callback: grpc.requestCallback<_quarry_identity_v1_Project__Output>): grpc.ClientUnaryCall;
  /**
   * Reads a project.
   */
  getProject(argument: _quarry_identity_v1_GetProjectRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_quarry_identity_v1_Project__Output>): grpc.ClientUnaryCall;
  getProject(argument: _quarry_identity_v1_GetProjectRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_quarry_identity_v1_Project__Output>): grpc.ClientUnaryCall;
  getProject(argument: _quarry_identity_v1_GetProjectRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_quarry_identity_v1_Project__Output>): grpc.ClientUnaryCall;
  getProject(argument: _quarry_identity_v1_GetProjectRequest, callback: grpc.requestCallback<_quarry_identity_v1_Project__Output>): grpc.ClientUnaryCall;
  
  /**
   * Reads a user.
   */
  GetUser(argument: _quarry_identity_v1_GetUserRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_quarry_identity_v1_User__Output>): grpc.ClientUnaryCall;
  GetUser(argument: _quarry_identity_v1_GetUserRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_quarry_identity_v1_User__Output>): grpc.ClientUnaryCall;
  GetUser(argument: _quarry_identity_v1_GetUserRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_quarry_identity_v1_User__Output>): grpc.ClientUnaryCall;
  GetUser(argument: _quarry_identity_v1_GetUserRequest, callback: grpc.requestCallback<_quarry_identity_v1_User__Output>): grpc.ClientUnaryCall;
  /**
   * Reads a user.
   */
  getUser(argument: _quarry_identity_v1_GetUserRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_quarry_identity_v1_User__Output>): grpc.ClientUnaryCall;
  getUser(argument: _quarry_identity_v1_GetUserRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_quarry_identity_v1_User__Output>): grpc.ClientUnaryCall;
  getUser(argument: _quarry_identity_v1_GetUserRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_quarry_identity_v1_User__Output>): grpc.ClientUnaryCall;
  getUser(argument: _quarry_identity_v1_GetUserRequest, callback: grpc.requestCallback<_quarry_identity_v1_User__Output>): grpc.ClientUnaryCall;
  
  /**
   * Lists groups (and subgroups with parent_id).
   */
  ListGroups(argument: _quarry_identity_v1_ListGroupsRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_quarry_identity_v1_ListGroupsResponse__Output>): grpc.ClientUnaryCall;
  ListGroups(argument: _quarry_identity_v1_ListGroupsRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_quarry_identity_v1_ListGroupsResponse__Output>): grpc.ClientUnaryCall;
  ListGroups(argument: _quarry_identity_v1_ListGroupsRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_quarry_identity_v1_ListGroupsResponse__Output>): grpc.ClientUnaryCall;
  ListGroups(argument: _quarry_identity_v1_ListGroupsRequest, callback: grpc.requestCallback<_quarry_identity_v1_ListGroupsResponse__Output>): grpc.ClientUnaryCall;
  /**
   * Lists groups (and subgroups with parent_id).
   */
  listGroups(argument: _quarry_identity_v1_ListGroupsRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_quarry_identity_v1_ListGroupsResponse__Output>): grpc.ClientUnaryCall;
  listGroups(argument: _quarry_identity_v1_ListGroupsRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_quarry_identity_v1_ListGroupsResponse__Output>): grpc.ClientUnaryCall;
  listGroups(argument: _quarry_identity_v1_ListGroupsRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_quarry_identity_v1_ListGroupsResponse__Output>): grpc.ClientUnaryCall;
  listGroups(argument: _quarry_identity_v1_ListGroupsRequest, callback: grpc.requestCallback<_quarry_identity_v1_ListGroupsResponse__Output>): grpc.ClientUnaryCall;
  
  /**
   * Lists members.
   */
  ListMembers(argument: _quarry_identity_v1_ListMembersRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_quarry_identity_v1_ListMembersResponse__Output>): grpc.ClientUnaryCall;
  ListMembers(argument: _quarry_identity_v1_ListMembersRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_quarry_identity_v1_ListMembersResponse__Output>): grpc.ClientUnaryCall;
  ListMembers(argument: _quarry_identity_v1_ListMembersRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_quarry_identity_v1_ListMembersResponse__Output>): grpc.ClientUnaryCall;
  ListMembers(argument: _quarry_identity_v1_ListMembersRequest, callback: grpc.requestCallback<_quarry_identity_v1_ListMembersResponse__Output>): grpc.ClientUnaryCall;
  /**
   * Lists members.
   */
  listMembers(argument: _quarry_identity_v1_ListMembersRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_quarry_identity_v1_ListMembersResponse__Output>): grpc.ClientUnaryCall;
  listMembers(argument: _quarry_identity_v1_ListMembersRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_quarry_identity_v1_ListMembersResponse__Output>): grpc.ClientUnaryCall;
  listMembers(argument: _quarry_identity_v1_ListMembersRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_quarry_identity_v1_ListMembersResponse__Output>): grpc.ClientUnaryCall;
  listMembers(argument: _quarry_identity_v1_ListMembersRequest, callback: grpc.requestCallback<_quarry_identity_v1_ListMembersResponse__Output>): grpc.ClientUnaryCall;
  
  /**
   * Lists personal access tokens.
   */
  ListPersonalAccessTokens(argument: _quarry_identity_v1_ListPersonalAccessTokensRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_quarry_identity_v1_ListPersonalAccessTokensResponse__Output>): grpc.ClientUnaryCall;
  ListPersonalAccessTokens(argument: _quarry_identity_v1_ListPersonalAccessTokensRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_quarry_identity_v1_ListPersonalAccessTokensResponse__Output>): grpc.ClientUnaryCall;
  ListPersonalAccessTokens(argument: _quarry_identity_v1_ListPersonalAccessTokensRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_quarry_identity_v1_ListPersonalAccessTokensResponse__Output>): grpc.ClientUnaryCall;
  ListPersonalAccessTokens(argument: _quarry_identity_v1_ListPersonalAccessTokensRequest, callback: grpc.requestCallback<_quarry_identity_v1_ListPersonalAccessTokensResponse__Output>): grpc.ClientUnaryCall;
  /**
   * Lists personal access tokens.
   */
  listPersonalAccessTokens(argument: _quarry_identity_v1_ListPersonalAccessTokensRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_quarry_identity_v1_ListPersonalAccessTokensResponse__Output>): grpc.ClientUnaryCall;
  listPersonalAccessTokens(argument: _quarry_identity_v1_ListPersonalAccessTokensRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_quarry_identity_v1_ListPersonalAccessTokensResponse__Output>): grpc.ClientUnaryCall;
  listPersonalAccessTokens(argument: _quarry_identity_v1_ListPersonalAccessTokensRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_quarry_identity_v1_ListPersonalAccessTokensResponse__Output>): grpc.ClientUnaryCall;
  listPersonalAccessTokens(argument: _quarry_identity_v1_ListPersonalAccessTokensRequest, callback: grpc.requestCallback<_quarry_identity_v1_ListPersonalAccessTokensResponse__Output>): grpc.ClientUnaryCall;
  
  /**
   * Lists projects.
   */
  ListProjects(argument: _quarry_identity_v1_ListProjectsRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_quarry_identity_v1_ListProjectsResponse__Output>): grpc.ClientUnaryCall;
  ListProjects(argument: _quarry_identity_v1_ListProjectsRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_quarry_identity_v1_ListProjectsResponse__Output>): grpc.ClientUnaryCall;
  ListProjects(argument: _quarry_identity_v1_ListProjectsRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_quarry_identity_v1_ListProjectsResponse__Output>): grpc.ClientUnaryCall;
  ListProjects(argument: _quarry_identity_v1_ListProjectsRequest, callback: grpc.requestCallback<_quarry_identity_v1_ListProjectsResponse__Output>): grpc.ClientUnaryCall;
  /**
   * Lists projects.
   */
  listProjects(argument: _quarry_identity_v1_ListProjectsRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_quarry_identity_v1_ListProjectsResponse__Output>): grpc.ClientUnaryCall;
  listProjects(argument: _quarry_identity_v1_ListProjectsRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_quarry_identity_v1_ListProjectsResponse__Output>): grpc.ClientUnaryCall;
  listProjects(argument: _quarry_identity_v1_ListProjectsRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_quarry_identity_v1_ListProjectsResponse__Output>): grpc.ClientUnaryCall;
  listProjects(argument: _quarry_identity_v1_ListProjectsRequest, callback: grpc.requestCallback<_quarry_identity_v1_ListProjectsResponse__Output>): grpc.ClientUnaryCall;
  
  /**
   * Lists users.
   */
  ListUsers(argument: _quarry_identity_v1_ListUsersRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_quarry_identity_v1_ListUsersResponse__Output>): grpc.ClientUnaryCall;
  ListUsers(argument: _quarry_identity_v1_ListUsersRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_quarry_identity_v1_ListUsersResponse__Output>): grpc.ClientUnaryCall;
  ListUsers(argument: _quarry_identity_v1_ListUsersRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_quarry_identity_v1_ListUsersResponse__Output>): grpc.ClientUnaryCall;
  ListUsers(argument: _quarry_identity_v1_ListUsersRequest, callback: grpc.requestCallback<_quarry_identity_v1_ListUsersResponse__Output>): grpc.ClientUnaryCall;
  /**
   * Lists users.
   */
  listUsers(argument: _quarry_identity_v1_ListUsersRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_quarry_identity_v1_ListUsersResponse__Output>): grpc.ClientUnaryCall;
  listUsers(argument: _quarry_identity_v1_ListUsersRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_quarry_identity_v1_ListUsersResponse__Output>): grpc.ClientUnaryCall;
  listUsers(argument: _quarry_identity_v1_ListUsersRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_quarry_identity_v1_ListUsersResponse__Output>): grpc.ClientUnaryCall;
  listUsers(argument: _quarry_identity_v1_ListUsersRequest, callback: grpc.requestCallback<_quarry_identity_v1_ListUsersResponse__Output>): grpc.ClientUnaryCall;
  
  /**
   * Removes a member.
   */
  RemoveMember(argument: _quarry_identity_v1_RemoveMemberRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_quarry_identity_v1_Empty__Output>): grpc.ClientUnaryCall;
  RemoveMember(argument: _quarry_identity_v1_RemoveMemberRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_quarry_identity_v1_Empty__Output>): grpc.ClientUnaryCall;
  RemoveMember(argument: _quarry_identity_v1_RemoveMemberRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_quarry_identity_v1_Empty__Output>): grpc.ClientUnaryCall;
  RemoveMember(argument: _quarry_identity_v1_RemoveMemberRequest, callback: grpc.requestCallback<_quarry_identity_v1_Empty__Output>): grpc.ClientUnaryCall;
  /**
   * Removes a member.
   */
  removeMember(argument: _quarry_identity_v1_RemoveMemberRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_quarry_identity_v1_Empty__Output>): grpc.ClientUnaryCall;
  removeMember(argument: _quarry_identity_v1_RemoveMemberRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_quarry_identity_v1_Empty__Output>): grpc.ClientUnaryCall;
  removeMember(argument: _quarry_identity_v1_RemoveMemberRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_quarry_identity_v1_Empty__Output>): grpc.ClientUnaryCall;
  removeMember(argument: _quarry_identity_v1_RemoveMemberRequest, callback: grpc.requestCallback<_quarry_identity_v1_Empty__Output>): grpc.ClientUnaryCall;
  
  /**
   * Revokes a personal access token.
   */
  RevokePersonalAccessToken(argument: _quarry_identity_v1_RevokePersonalAccessTokenRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_quarry_identity_v1_Empty__Output>): grpc.ClientUnaryCall;
  RevokePersonalAccessToken(argument: _quarry_identity_v1_RevokePersonalAccessTokenRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_quarry_identity_v1_Empty__Output>): grpc.ClientUnaryCall;
  RevokePersonalAccessToken(argument: _quarry_identity_v1_RevokePersonalAccessTokenRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_quarry_identity_v1_Empty__Output>): grpc.ClientUnaryCall;
  RevokePersonalAccessToken(argument: _quarry_identity_v1_RevokePersonalAccessTokenRequest, callback: grpc.requestCallback<_quarry_identity_v1_Empty__Output>): grpc.ClientUnaryCall;
  /**
   * Revokes a personal access token.
   */
  revokePersonalAccessToken(argument: _quarry_identity_v1_RevokePersonalAccessTokenRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_quarry_identity_v1_Empty__Output>): grpc.ClientUnaryCall;
  revokePersonalAccessToken(argument: _quarry_identity_v1_RevokePersonalAccessTokenRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_quarry_identity_v1_Empty__Output>): grpc.ClientUnaryCall;
  revokePersonalAccessToken(argument: _quarry_identity_v1_RevokePersonalAccessTokenRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_quarry_identity_v1_Empty__Output>): grpc.ClientUnaryCall;
  revokePersonalAccessToken(argument: _quarry_identity_v1_RevokePersonalAccessTokenRequest, callback: grpc.requestCallback<_quarry_identity_v1_Empty__Output>): grpc.ClientUnaryCall;
  
  /**
   * Updates a group.
   */
  UpdateGroup(argument: _quarry_identity_v1_UpdateGroupRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_quarry_identity_v1_Group__Output>): grpc.ClientUnaryCall;
  UpdateGroup(argument: _quarry_identity_v1_UpdateGroupRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_quarry_identity_v1_Group__Output>): grpc.ClientUnaryCall;
  UpdateGroup(argument: _quarry_identity_v1_UpdateGroupRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_quarry_identity_v1_Group__Output>): grpc.ClientUnaryCall;
  UpdateGroup(argument: _quarry_identity_v1_UpdateGroupRequest, callback: grpc.requestCallback<_quarry_identity_v1_Group__Output>): grpc.ClientUnaryCall;
  /**
   * Updates a group.
   */
  updateGroup(argument: _quarry_identity_v1_UpdateGroupRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_quarry_identity_v1_Group__Output>): grpc.ClientUnaryCall;
  updateGroup(argument: _quarry_identity_v1_UpdateGroupRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_quarry_identity_v1_Group__Output>): grpc.ClientUnaryCall;
  updateGroup(argument: _quarry_identity_v1_UpdateGroupRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_quarry_identity_v1_Group__Output>): grpc.ClientUnaryCall;
  updateGroup(argument: _quarry_identity_v1_UpdateGroupRequest, callback: grpc.requestCallback<_quarry_identity_v1_Group__Output>): grpc.ClientUnaryCall;
  
  /**
   * Updates a member.
   */
  UpdateMember(argument: _quarry_identity_v1_UpdateMemberRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_quarry_identity_v1_Member__Output>): grpc.ClientUnaryCall;
  UpdateMember(argument: _quarry_identity_v1_UpdateMemberRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_quarry_identity_v1_Member__Output>): grpc.ClientUnaryCall;
  UpdateMember(argument: _quarry_identity_v1_UpdateMemberRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_quarry_identity_v1_Member__Output>): grpc.ClientUnaryCall;
  UpdateMember(argument: _quarry_identity_v1_UpdateMemberRequest, callback: grpc.requestCallback<_quarry_identity_v1_Member__Output>): grpc.ClientUnaryCall;
  /**
   * Updates a member.
   */
  updateMember(argument: _quarry_identity_v1_UpdateMemberRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_quarry_identity_v1_Member__Output>): grpc.ClientUnaryCall;
  updateMember(argument: _quarry_identity_v1_UpdateMemberRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_quarry_identity_v1_Member__Output>): grpc.ClientUnaryCall;
  updateMember(argument: _quarry_identity_v1_UpdateMemberRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_quarry_identity_v1_Member__Output>): grpc.ClientUnaryCall;
  updateMember(argument: _quarry_identity_v1_UpdateMemberRequest, callback: grpc.requestCallback<_quarry_identity_v1_Member__Output>): grpc.ClientUnaryCall;
  
  /**
   * Updates a project.
   */
  UpdateProject(argument: _quarry_identity_v1_UpdateProjectRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_quarry_identity_v1_Project__Output>): grpc.ClientUnaryCall;
  UpdateProject(argument: _quarry_identity_v1_UpdateProjectRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_quarry_identity_v1_Project__Output>): grpc.ClientUnaryCall;
  UpdateProject(argument: _quarry_identity_v1_UpdateProjectRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_quarry_identity_v1_Project__Output>): grpc.ClientUnaryCall;
  UpdateProject(argument: _quarry_identity_v1_UpdateProjectRequest, callback: grpc.requestCallback<_quarry_identity_v1_Project__Output>): grpc.ClientUnaryCall;
  /**
   * Updates a project.
   */
  updateProject(argument: _quarry_identity_v1_UpdateProjectRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_quarry_identity_v1_Project__Output>): grpc.ClientUnaryCall;
  updateProject(argument: _quarry_identity_v1_UpdateProjectRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_quarry_identity_v1_Project__Output>): grpc.ClientUnaryCall;
  updateProject(argument: _quarry_identity_v1_UpdateProjectRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_quarry_identity_v1_Project__Output>): grpc.ClientUnaryCall;
  updateProject(argument: _quarry_identity_v1_UpdateProjectRequest, callback: grpc.requestCallback<_quarry_identity_v1_Project__Output>): grpc.ClientUnaryCall;
  
  /**
   * Updates a user.
   */
  UpdateUser(argument: _quarry_identity_v1_UpdateUserRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_quarry_identity_v1_User__Output>): grpc.ClientUnaryCall;
  UpdateUser(argument: _quarry_identity_v1_UpdateUserRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_quarry_identity_v1_User__Output>): grpc.ClientUnaryCall;
  UpdateUser(argument: _quarry_identity_v1_UpdateUserRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_quarry_identity_v1_User__Output>): grpc.ClientUnaryCall;
  UpdateUser(argument: _quarry_identity_v1_UpdateUserRequest, callback: grpc.requestCallback<_quarry_identity_v1_User__Output>): grpc.ClientUnaryCall;
  /**
   * Updates a user.
   */
  updateUser(argument: _quarry_identity_v1_UpdateUserRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_quarry_identity_v1_User__Output>): grpc.ClientUnaryCall;
  updateUser(argument: _quarry_identity_v1_UpdateUserRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_quarry_identity_v1_User__Output>): grpc.ClientUnaryCall;
  updateUser(argument: _quarry_identity_v1_UpdateUserRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_quarry_identity_v1_User__Output>): grpc.ClientUnaryCall;
  updateUser(argument: _quarry_identity_v1_UpdateUserRequest, callback: grpc.requestCallback<_quarry_identity_v1_User__Output>): grpc.ClientUnaryCall;
  
}

/**
 * Users, tokens, groups, projects, memberships and authorization.
 */
export interface IdentityServiceHandlers extends grpc.UntypedServiceImplementation {
  /**
   * Adds a member.
   */
  AddMember: grpc.handleUnaryCall<_quarry_identity_v1_AddMemberRequest__Output, _quarry_identity_v1_Member>;
  
  /**
   * Resolves a token; UNAUTHENTICATED when unknown, revoked, expired or its user blocked.
   */
  Authenticate: grpc.handleUnaryCall<_quarry_identity_v1_AuthenticateRequest__Output, _quarry_identity_v1_AuthenticateResponse>;
  
  /**
   * Answers a permission question for another service's resource.
   */
  Authorize: grpc.handleUnaryCall<_quarry_identity_v1_AuthorizeRequest__Output, _quarry_identity_v1_AuthorizeResponse>;
  
  /**
   * Creates a group.
   */
  CreateGroup: grpc.handleUnaryCall<_quarry_identity_v1_CreateGroupRequest__Output, _quarry_identity_v1_Group>;
  
  /**
   * Creates a personal access token.
   */
  CreatePersonalAccessToken: grpc.handleUnaryCall<_quarry_identity_v1_CreatePersonalAccessTokenRequest__Output, _quarry_identity_v1_PersonalAccessToken>;
  
  /**
   * Creates a project and its repository.
   */
  CreateProject: grpc.handleUnaryCall<_quarry_identity_v1_CreateProjectRequest__Output, _quarry_identity_v1_Project>;
  
  /**
   * Creates a user.
   */
  CreateUser: grpc.handleUnaryCall<_quarry_identity_v1_CreateUserRequest__Output, _quarry_identity_v1_User>;
  
  /**
   * Deletes a group.
   */
  DeleteGroup: grpc.handleUnaryCall<_quarry_identity_v1_DeleteGroupRequest__Output, _quarry_identity_v1_Empty>;
  
  /**
   * Deletes a project and its repository.
   */
  DeleteProject: grpc.handleUnaryCall<_quarry_identity_v1_DeleteProjectRequest__Output, _quarry_identity_v1_Empty>;
  
  /**
   * Deletes a user.
   */
  DeleteUser: grpc.handleUnaryCall<_quarry_identity_v1_DeleteUserRequest__Output, _quarry_identity_v1_Empty>;
  
  /**
   * Creates root and its first token when the instance is new.
   */
  EnsureRootUser: grpc.handleUnaryCall<_quarry_identity_v1_EnsureRootUserRequest__Output, _quarry_identity_v1_EnsureRootUserResponse>;
  
  /**
   * Reads a group.
   */
  GetGroup: grpc.handleUnaryCall<_quarry_identity_v1_GetGroupRequest__Output, _quarry_identity_v1_Group>;
  
  /**
   * Reads a member.
   */
  GetMember: grpc.handleUnaryCall<_quarry_identity_v1_GetMemberRequest__Output, _quarry_identity_v1_Member>;
  
  /**
   * Reads one personal access token.
   */
  GetPersonalAccessToken: grpc.handleUnaryCall<_quarry_identity_v1_GetPersonalAccessTokenRequest__Output, _quarry_identity_v1_PersonalAccessToken>;
  
  /**
   * Reads a project.
   */
  GetProject: grpc.handleUnaryCall<_quarry_identity_v1_GetProjectRequest__Output, _quarry_identity_v1_Project>;
  
  /**
   * Reads a user.
   */
  GetUser: grpc.handleUnaryCall<_quarry_identity_v1_GetUserRequest__Output, _quarry_identity_v1_User>;
  
  /**
   * Lists groups (and subgroups with parent_id).
   */
  ListGroups: grpc.handleUnaryCall<_quarry_identity_v1_ListGroupsRequest__Output, _quarry_identity_v1_ListGroupsResponse>;
  
  /**
   * Lists members.
   */
  ListMembers: grpc.handleUnaryCall<_quarry_identity_v1_ListMembersRequest__Output, _quarry_identity_v1_ListMembersResponse>;
  
  /**
   * Lists personal access tokens.
   */
  ListPersonalAccessTokens: grpc.handleUnaryCall<_quarry_identity_v1_ListPersonalAccessTokensRequest__Output, _quarry_identity_v1_ListPersonalAccessTokensResponse>;
  
  /**
   * Lists projects.
   */
  ListProjects: grpc.handleUnaryCall<_quarry_identity_v1_ListProjectsRequest__Output, _quarry_identity_v1_ListProjectsResponse>;
  
  /**
   * Lists users.
   */
  ListUsers: grpc.handleUnaryCall<_quarry_identity_v1_ListUsersRequest__Output, _quarry_identity_v1_ListUsersResponse>;
  
  /**
   * Removes a member.
   */
  RemoveMember: grpc.handleUnaryCall<_quarry_identity_v1_RemoveMemberRequest__Output, _quarry_identity_v1_Empty>;
  
  /**
   * Revokes a personal access token.
   */
  RevokePersonalAccessToken: grpc.handleUnaryCall<_quarry_identity_v1_RevokePersonalAccessTokenRequest__Output, _quarry_identity_v1_Empty>;
  
  /**
   * Updates a group.
   */
  UpdateGroup: grpc.handleUnaryCall<_quarry_identity_v1_UpdateGroupRequest__Output, _quarry_identity_v1_Group>;
  
  /**
   * Updates a member.
   */
  UpdateMember: grpc.handleUnaryCall<_quarry_identity_v1_UpdateMemberRequest__Output, _quarry_identity_v1_Member>;
  
  /**
   * Updates a project.
   */
  UpdateProject: grpc.handleUnaryCall<_quarry_identity_v1_UpdateProjectRequest__Output, _quarry_identity_v1_Project>;
  
  /**
   * Updates a user.
   */
  UpdateUser: grpc.handleUnaryCall<_quarry_identity_v1_UpdateUserRequest__Output, _quarry_identity_v1_User>;
  
}

export interface IdentityServiceDefinition extends grpc.ServiceDefinition {
  AddMember: MethodDefinition<_quarry_identity_v1_AddMemberRequest, _quarry_identity_v1_Member, _quarry_identity_v1_AddMemberRequest__Output, _quarry_identity_v1_Member__Output>
  Authenticate: MethodDefinition<_quarry_identity_v1_AuthenticateRequest, _quarry_identity_v1_AuthenticateResponse, _quarry_identity_v1_AuthenticateRequest__Output, _quarry_identity_v1_AuthenticateResponse__Output>
  Authorize: MethodDefinition<_quarry_identity_v1_AuthorizeRequest, _quarry_identity_v1_AuthorizeResponse, _quarry_identity_v1_AuthorizeRequest__Output, _quarry_identity_v1_AuthorizeResponse__Output>
  CreateGroup: MethodDefinition<_quarry_identity_v1_CreateGroupRequest, _quarry_identity_v1_Group, _quarry_identity_v1_CreateGroupRequest__Output, _quarry_identity_v1_Group__Output>
  CreatePersonalAccessToken: MethodDefinition<_quarry_identity_v1_CreatePersonalAccessTokenRequest, _quarry_identity_v1_PersonalAccessToken, _quarry_identity_v1_CreatePersonalAccessTokenRequest__Output, _quarry_identity_v1_PersonalAccessToken__Output>
  CreateProject: MethodDefinition<_quarry_identity_v1_CreateProjectRequest, _quarry_identity_v1_Project, _quarry_identity_v1_CreateProjectRequest__Output, _quarry_identity_v1_Project__Output>
  CreateUser: MethodDefinition<_quarry_identity_v1_CreateUserRequest, _quarry_identity_v1_User, _quarry_identity_v1_CreateUserRequest__Output, _quarry_identity_v1_User__Output>
  DeleteGroup: MethodDefinition<_quarry_identity_v1_DeleteGroupRequest, _quarry_identity_v1_Empty, _quarry_identity_v1_DeleteGroupRequest__Output, _quarry_identity_v1_Empty__Output>
  DeleteProject: MethodDefinition<_quarry_identity_v1_DeleteProjectRequest, _quarry_identity_v1_Empty, _quarry_identity_v1_DeleteProjectRequest__Output, _quarry_identity_v1_Empty__Output>
  DeleteUser: MethodDefinition<_quarry_identity_v1_DeleteUserRequest, _quarry_identity_v1_Empty, _quarry_identity_v1_DeleteUserRequest__Output, _quarry_identity_v1_Empty__Output>
  EnsureRootUser: MethodDefinition<_quarry_identity_v1_EnsureRootUserRequest, _quarry_identity_v1_EnsureRootUserResponse, _quarry_identity_v1_EnsureRootUserRequest__Output, _quarry_identity_v1_EnsureRootUserResponse__Output>
  GetGroup: MethodDefinition<_quarry_identity_v1_GetGroupRequest, _quarry_identity_v1_Group, _quarry_identity_v1_GetGroupRequest__Output, _quarry_identity_v1_Group__Output>
  GetMember: MethodDefinition<_quarry_identity_v1_GetMemberRequest, _quarry_identity_v1_Member, _quarry_identity_v1_GetMemberRequest__Output, _quarry_identity_v1_Member__Output>
  GetPersonalAccessToken: MethodDefinition<_quarry_identity_v1_GetPersonalAccessTokenRequest, _quarry_identity_v1_PersonalAccessToken, _quarry_identity_v1_GetPersonalAccessTokenRequest__Output, _quarry_identity_v1_PersonalAccessToken__Output>
  GetProject: MethodDefinition<_quarry_identity_v1_GetProjectRequest, _quarry_identity_v1_Project, _quarry_identity_v1_GetProjectRequest__Output, _quarry_identity_v1_Project__Output>
  GetUser: MethodDefinition<_quarry_identity_v1_GetUserRequest, _quarry_identity_v1_User, _quarry_identity_v1_GetUserRequest__Output, _quarry_identity_v1_User__Output>
  ListGroups: MethodDefinition<_quarry_identity_v1_ListGroupsRequest, _quarry_identity_v1_ListGroupsResponse, _quarry_identity_v1_ListGroupsRequest__Output, _quarry_identity_v1_ListGroupsResponse__Output>
  ListMembers: MethodDefinition<_quarry_identity_v1_ListMembersRequest, _quarry_identity_v1_ListMembersResponse, _quarry_identity_v1_ListMembersRequest__Output, _quarry_identity_v1_ListMembersResponse__Output>
  ListPersonalAccessTokens: MethodDefinition<_quarry_identity_v1_ListPersonalAccessTokensRequest, _quarry_identity_v1_ListPersonalAccessTokensResponse, _quarry_identity_v1_ListPersonalAccessTokensRequest__Output, _quarry_identity_v1_ListPersonalAccessTokensResponse__Output>
  ListProjects: MethodDefinition<_quarry_identity_v1_ListProjectsRequest, _quarry_identity_v1_ListProjectsResponse, _quarry_identity_v1_ListProjectsRequest__Output, _quarry_identity_v1_ListProjectsResponse__Output>
  ListUsers: MethodDefinition<_quarry_identity_v1_ListUsersRequest, _quarry_identity_v1_ListUsersResponse, _quarry_identity_v1_ListUsersRequest__Output, _quarry_identity_v1_ListUsersResponse__Output>
  RemoveMember: MethodDefinition<_quarry_identity_v1_RemoveMemberRequest, _quarry_identity_v1_Empty, _quarry_identity_v1_RemoveMemberRequest__Output, _quarry_identity_v1_Empty__Output>
  RevokePersonalAccessToken: MethodDefinition<_quarry_identity_v1_RevokePersonalAccessTokenRequest, _quarry_identity_v1_Empty, _quarry_identity_v1_RevokePersonalAccessTokenRequest__Output, _quarry_identity_v1_Empty__Output>
  UpdateGroup: MethodDefinition<_quarry_identity_v1_UpdateGroupRequest, _quarry_identity_v1_Group, _quarry_identity_v1_UpdateGroupRequest__Output, _quarry_identity_v1_Group__Output>
  UpdateMember: MethodDefinition<_quarry_identity_v1_UpdateMemberRequest, _quarry_identity_v1_Member, _quarry_identity_v1_UpdateMemberRequest__Output, _quarry_identity_v1_Member__Output>
  UpdateProject: MethodDefinition<_quarry_identity_v1_UpdateProjectRequest, _quarry_identity_v1_Project, _quarry_identity_v1_UpdateProjectRequest__Output, _quarry_identity_v1_Project__Output>
  UpdateUser: MethodDefinition<_quarry_identity_v1_UpdateUserRequest, _quarry_identity_v1_User, _quarry_identity_v1_UpdateUserRequest__Output, _quarry_identity_v1_User__Output>
}
