import type * as grpc from '@grpc/grpc-js';
import type { MessageTypeDefinition } from '@grpc/proto-loader';

import type { Actor as _quarry_identity_v1_Actor, Actor__Output as _quarry_identity_v1_Actor__Output } from './quarry/identity/v1/Actor';
import type { AddMemberRequest as _quarry_identity_v1_AddMemberRequest, AddMemberRequest__Output as _quarry_identity_v1_AddMemberRequest__Output } from './quarry/identity/v1/AddMemberRequest';
import type { AuthenticateRequest as _quarry_identity_v1_AuthenticateRequest, AuthenticateRequest__Output as _quarry_identity_v1_AuthenticateRequest__Output } from './quarry/identity/v1/AuthenticateRequest';
import type { AuthenticateResponse as _quarry_identity_v1_AuthenticateResponse, AuthenticateResponse__Output as _quarry_identity_v1_AuthenticateResponse__Output } from './quarry/identity/v1/AuthenticateResponse';
import type { AuthorizeRequest as _quarry_identity_v1_AuthorizeRequest, AuthorizeRequest__Output as _quarry_identity_v1_AuthorizeRequest__Output } from './quarry/identity/v1/AuthorizeRequest';
import type { AuthorizeResponse as _quarry_identity_v1_AuthorizeResponse, AuthorizeResponse__Output as _quarry_identity_v1_AuthorizeResponse__Output } from './quarry/identity/v1/AuthorizeResponse';
import type { CreateGroupRequest as _quarry_identity_v1_CreateGroupRequest, CreateGroupRequest__Output as _quarry_identity_v1_CreateGroupRequest__Output } from './quarry/identity/v1/CreateGroupRequest';
import type { CreatePersonalAccessTokenRequest as _quarry_identity_v1_CreatePersonalAccessTokenRequest, CreatePersonalAccessTokenRequest__Output as _quarry_identity_v1_CreatePersonalAccessTokenRequest__Output } from './quarry/identity/v1/CreatePersonalAccessTokenRequest';
import type { CreateProjectRequest as _quarry_identity_v1_CreateProjectRequest, CreateProjectRequest__Output as _quarry_identity_v1_CreateProjectRequest__Output } from './quarry/identity/v1/CreateProjectRequest';
import type { CreateUserRequest as _quarry_identity_v1_CreateUserRequest, CreateUserRequest__Output as _quarry_identity_v1_CreateUserRequest__Output } from './quarry/identity/v1/CreateUserRequest';
import type { DeleteGroupRequest as _quarry_identity_v1_DeleteGroupRequest, DeleteGroupRequest__Output as _quarry_identity_v1_DeleteGroupRequest__Output } from './quarry/identity/v1/DeleteGroupRequest';
import type { DeleteProjectRequest as _quarry_identity_v1_DeleteProjectRequest, DeleteProjectRequest__Output as _quarry_identity_v1_DeleteProjectRequest__Output } from './quarry/identity/v1/DeleteProjectRequest';
import type { DeleteUserRequest as _quarry_identity_v1_DeleteUserRequest, DeleteUserRequest__Output as _quarry_identity_v1_DeleteUserRequest__Output } from './quarry/identity/v1/DeleteUserRequest';
import type { Empty as _quarry_identity_v1_Empty, Empty__Output as _quarry_identity_v1_Empty__Output } from './quarry/identity/v1/Empty';
import type { EnsureRootUserRequest as _quarry_identity_v1_EnsureRootUserRequest, EnsureRootUserRequest__Output as _quarry_identity_v1_EnsureRootUserRequest__Output } from './quarry/identity/v1/EnsureRootUserRequest';
import type { EnsureRootUserResponse as _quarry_identity_v1_EnsureRootUserResponse, EnsureRootUserResponse__Output as _quarry_identity_v1_EnsureRootUserResponse__Output } from './quarry/identity/v1/EnsureRootUserResponse';
import type { GetGroupRequest as _quarry_identity_v1_GetGroupRequest, GetGroupRequest__Output as _quarry_identity_v1_GetGroupRequest__Output } from './quarry/identity/v1/GetGroupRequest';
import type { GetMemberRequest as _quarry_identity_v1_GetMemberRequest, GetMemberRequest__Output as _quarry_identity_v1_GetMemberRequest__Output } from './quarry/identity/v1/GetMemberRequest';
import type { GetPersonalAccessTokenRequest as _quarry_identity_v1_GetPersonalAccessTokenRequest, GetPersonalAccessTokenRequest__Output as _quarry_identity_v1_GetPersonalAccessTokenRequest__Output } from './quarry/identity/v1/GetPersonalAccessTokenRequest';
import type { GetProjectRequest as _quarry_identity_v1_GetProjectRequest, GetProjectRequest__Output as _quarry_identity_v1_GetProjectRequest__Output } from './quarry/identity/v1/GetProjectRequest';
import type { GetUserRequest as _quarry_identity_v1_GetUserRequest, GetUserRequest__Output as _quarry_identity_v1_GetUserRequest__Output } from './quarry/identity/v1/GetUserRequest';
import type { Group as _quarry_identity_v1_Group, Group__Output as _quarry_identity_v1_Group__Output } from './quarry/identity/v1/Group';
import type { IdentityServiceClient as _quarry_identity_v1_IdentityServiceClient, IdentityServiceDefinition as _quarry_identity_v1_IdentityServiceDefinition } from './quarry/identity/v1/IdentityService';
import type { ListGroupsRequest as _quarry_identity_v1_ListGroupsRequest, ListGroupsRequest__Output as _quarry_identity_v1_ListGroupsRequest__Output } from './quarry/identity/v1/ListGroupsRequest';
import type { ListGroupsResponse as _quarry_identity_v1_ListGroupsResponse, ListGroupsResponse__Output as _quarry_identity_v1_ListGroupsResponse__Output } from './quarry/identity/v1/ListGroupsResponse';
import type { ListMembersRequest as _quarry_identity_v1_ListMembersRequest, ListMembersRequest__Output as _quarry_identity_v1_ListMembersRequest__Output } from './quarry/identity/v1/ListMembersRequest';
import type { ListMembersResponse as _quarry_identity_v1_ListMembersResponse, ListMembersResponse__Output as _quarry_identity_v1_ListMembersResponse__Output } from './quarry/identity/v1/ListMembersResponse';
import type { ListPersonalAccessTokensRequest as _quarry_identity_v1_ListPersonalAccessTokensRequest, ListPersonalAccessTokensRequest__Output as _quarry_identity_v1_ListPersonalAccessTokensRequest__Output } from './quarry/identity/v1/ListPersonalAccessTokensRequest';
import type { ListPersonalAccessTokensResponse as _quarry_identity_v1_ListPersonalAccessTokensResponse, ListPersonalAccessTokensResponse__Output as _quarry_identity_v1_ListPersonalAccessTokensResponse__Output } from './quarry/identity/v1/ListPersonalAccessTokensResponse';
import type { ListProjectsRequest as _quarry_identity_v1_ListProjectsRequest, ListProjectsRequest__Output as _quarry_identity_v1_ListProjectsRequest__Output } from './quarry/identity/v1/ListProjectsRequest';
import type { ListProjectsResponse as _quarry_identity_v1_ListProjectsResponse, ListProjectsResponse__Output as _quarry_identity_v1_ListProjectsResponse__Output } from './quarry/identity/v1/ListProjectsResponse';
import type { ListUsersRequest as _quarry_identity_v1_ListUsersRequest, ListUsersRequest__Output as _quarry_identity_v1_ListUsersRequest__Output } from './quarry/identity/v1/ListUsersRequest';
import type { ListUsersResponse as _quarry_identity_v1_ListUsersResponse, ListUsersResponse__Output as _quarry_identity_v1_ListUsersResponse__Output } from './quarry/identity/v1/ListUsersResponse';
import type { Member as _quarry_identity_v1_Member, Member__Output as _quarry_identity_v1_Member__Output } from './quarry/identity/v1/Member';
import type { MemberSource as _quarry_identity_v1_MemberSource, MemberSource__Output as _quarry_identity_v1_MemberSource__Output } from './quarry/identity/v1/MemberSource';
import type { Namespace as _quarry_identity_v1_Namespace, Namespace__Output as _quarry_identity_v1_Namespace__Output } from './quarry/identity/v1/Namespace';
import type { PageInfo as _quarry_identity_v1_PageInfo, PageInfo__Output as _quarry_identity_v1_PageInfo__Output } from './quarry/identity/v1/PageInfo';
import type { PageRequest as _quarry_identity_v1_PageRequest, PageRequest__Output as _quarry_identity_v1_PageRequest__Output } from './quarry/identity/v1/PageRequest';
import type { PersonalAccessToken as _quarry_identity_v1_PersonalAccessToken, PersonalAccessToken__Output as _quarry_identity_v1_PersonalAccessToken__Output } from './quarry/identity/v1/PersonalAccessToken';
import type { Project as _quarry_identity_v1_Project, Project__Output as _quarry_identity_v1_Project__Output } from './quarry/identity/v1/Project';
import type { RemoveMemberRequest as _quarry_identity_v1_RemoveMemberRequest, RemoveMemberRequest__Output as _quarry_identity_v1_RemoveMemberRequest__Output } from './quarry/identity/v1/RemoveMemberRequest';
import type { RevokePersonalAccessTokenRequest as _quarry_identity_v1_RevokePersonalAccessTokenRequest, RevokePersonalAccessTokenRequest__Output as _quarry_identity_v1_RevokePersonalAccessTokenRequest__Output } from './quarry/identity/v1/RevokePersonalAccessTokenRequest';
import type { UpdateGroupRequest as _quarry_identity_v1_UpdateGroupRequest, UpdateGroupRequest__Output as _quarry_identity_v1_UpdateGroupRequest__Output } from './quarry/identity/v1/UpdateGroupRequest';
import type { UpdateMemberRequest as _quarry_identity_v1_UpdateMemberRequest, UpdateMemberRequest__Output as _quarry_identity_v1_UpdateMemberRequest__Output } from './quarry/identity/v1/UpdateMemberRequest';
import type { UpdateProjectRequest as _quarry_identity_v1_UpdateProjectRequest, UpdateProjectRequest__Output as _quarry_identity_v1_UpdateProjectRequest__Output } from './quarry/identity/v1/UpdateProjectRequest';
import type { UpdateUserRequest as _quarry_identity_v1_UpdateUserRequest, UpdateUserRequest__Output as _quarry_identity_v1_UpdateUserRequest__Output } from './quarry/identity/v1/UpdateUserRequest';
import type { User as _quarry_identity_v1_User, User__Output as _quarry_identity_v1_User__Output } from './quarry/identity/v1/User';
import type { UserProfile as _quarry_identity_v1_UserProfile, UserProfile__Output as _quarry_identity_v1_UserProfile__Output } from './quarry/identity/v1/UserProfile';

type SubtypeConstructor<Constructor extends new (...args: any) => any, Subtype> = {
  new(...args: ConstructorParameters<Constructor>): Subtype;
};

export interface ProtoGrpcType {
  quarry: {
    identity: {
      v1: {
        Actor: MessageTypeDefinition<_quarry_identity_v1_Actor, _quarry_identity_v1_Actor__Output>
        AddMemberRequest: MessageTypeDefinition<_quarry_identity_v1_AddMemberRequest, _quarry_identity_v1_AddMemberRequest__Output>
        AuthenticateRequest: MessageTypeDefinition<_quarry_identity_v1_AuthenticateRequest, _quarry_identity_v1_AuthenticateRequest__Output>
        AuthenticateResponse: MessageTypeDefinition<_quarry_identity_v1_AuthenticateResponse, _quarry_identity_v1_AuthenticateResponse__Output>
        AuthorizeRequest: MessageTypeDefinition<_quarry_identity_v1_AuthorizeRequest, _quarry_identity_v1_AuthorizeRequest__Output>
        AuthorizeResponse: MessageTypeDefinition<_quarry_identity_v1_AuthorizeResponse, _quarry_identity_v1_AuthorizeResponse__Output>
        CreateGroupRequest: MessageTypeDefinition<_quarry_identity_v1_CreateGroupRequest, _quarry_identity_v1_CreateGroupRequest__Output>
        CreatePersonalAccessTokenRequest: MessageTypeDefinition<_quarry_identity_v1_CreatePersonalAccessTokenRequest, _quarry_identity_v1_CreatePersonalAccessTokenRequest__Output>
        CreateProjectRequest: MessageTypeDefinition<_quarry_identity_v1_CreateProjectRequest, _quarry_identity_v1_CreateProjectRequest__Output>
        CreateUserRequest: MessageTypeDefinition<_quarry_identity_v1_CreateUserRequest, _quarry_identity_v1_CreateUserRequest__Output>
        DeleteGroupRequest: MessageTypeDefinition<_quarry_identity_v1_DeleteGroupRequest, _quarry_identity_v1_DeleteGroupRequest__Output>
        DeleteProjectRequest: MessageTypeDefinition<_quarry_identity_v1_DeleteProjectRequest, _quarry_identity_v1_DeleteProjectRequest__Output>
        DeleteUserRequest: MessageTypeDefinition<_quarry_identity_v1_DeleteUserRequest, _quarry_identity_v1_DeleteUserRequest__Output>
        Empty: MessageTypeDefinition<_quarry_identity_v1_Empty, _quarry_identity_v1_Empty__Output>
        EnsureRootUserRequest: MessageTypeDefinition<_quarry_identity_v1_EnsureRootUserRequest, _quarry_identity_v1_EnsureRootUserRequest__Output>
        EnsureRootUserResponse: MessageTypeDefinition<_quarry_identity_v1_EnsureRootUserResponse, _quarry_identity_v1_EnsureRootUserResponse__Output>
        GetGroupRequest: MessageTypeDefinition<_quarry_identity_v1_GetGroupRequest, _quarry_identity_v1_GetGroupRequest__Output>
        GetMemberRequest: MessageTypeDefinition<_quarry_identity_v1_GetMemberRequest, _quarry_identity_v1_GetMemberRequest__Output>
        GetPersonalAccessTokenRequest: MessageTypeDefinition<_quarry_identity_v1_GetPersonalAccessTokenRequest, _quarry_identity_v1_GetPersonalAccessTokenRequest__Output>
        GetProjectRequest: MessageTypeDefinition<_quarry_identity_v1_GetProjectRequest, _quarry_identity_v1_GetProjectRequest__Output>
        GetUserRequest: MessageTypeDefinition<_quarry_identity_v1_GetUserRequest, _quarry_identity_v1_GetUserRequest__Output>
        Group: MessageTypeDefinition<_quarry_identity_v1_Group, _quarry_identity_v1_Group__Output>
        /**
         * Users, tokens, groups, projects, memberships and authorization.
         */
        IdentityService: SubtypeConstructor<typeof grpc.Client, _quarry_identity_v1_IdentityServiceClient> & { service: _quarry_identity_v1_IdentityServiceDefinition }
        ListGroupsRequest: MessageTypeDefinition<_quarry_identity_v1_ListGroupsRequest, _quarry_identity_v1_ListGroupsRequest__Output>
        ListGroupsResponse: MessageTypeDefinition<_quarry_identity_v1_ListGroupsResponse, _quarry_identity_v1_ListGroupsResponse__Output>
        ListMembersRequest: MessageTypeDefinition<_quarry_identity_v1_ListMembersRequest, _quarry_identity_v1_ListMembersRequest__Output>
        ListMembersResponse: MessageTypeDefinition<_quarry_identity_v1_ListMembersResponse, _quarry_identity_v1_ListMembersResponse__Output>
        ListPersonalAccessTokensRequest: MessageTypeDefinition<_quarry_identity_v1_ListPersonalAccessTokensRequest, _quarry_identity_v1_ListPersonalAccessTokensRequest__Output>
        ListPersonalAccessTokensResponse: MessageTypeDefinition<_quarry_identity_v1_ListPersonalAccessTokensResponse, _quarry_identity_v1_ListPersonalAccessTokensResponse__Output>
        ListProjectsRequest: MessageTypeDefinition<_quarry_identity_v1_ListProjectsRequest, _quarry_identity_v1_ListProjectsRequest__Output>
        ListProjectsResponse: MessageTypeDefinition<_quarry_identity_v1_ListProjectsResponse, _quarry_identity_v1_ListProjectsResponse__Output>
        ListUsersRequest: MessageTypeDefinition<_quarry_identity_v1_ListUsersRequest, _quarry_identity_v1_ListUsersRequest__Output>
        ListUsersResponse: MessageTypeDefinition<_quarry_identity_v1_ListUsersResponse, _quarry_identity_v1_ListUsersResponse__Output>
        Member: MessageTypeDefinition<_quarry_identity_v1_Member, _quarry_identity_v1_Member__Output>
        MemberSource: MessageTypeDefinition<_quarry_identity_v1_MemberSource, _quarry_identity_v1_MemberSource__Output>
        Namespace: MessageTypeDefinition<_quarry_identity_v1_Namespace, _quarry_identity_v1_Namespace__Output>
        PageInfo: MessageTypeDefinition<_quarry_identity_v1_PageInfo, _quarry_identity_v1_PageInfo__Output>
        PageRequest: MessageTypeDefinition<_quarry_identity_v1_PageRequest, _quarry_identity_v1_PageRequest__Output>
        PersonalAccessToken: MessageTypeDefinition<_quarry_identity_v1_PersonalAccessToken, _quarry_identity_v1_PersonalAccessToken__Output>
        Project: MessageTypeDefinition<_quarry_identity_v1_Project, _quarry_identity_v1_Project__Output>
        RemoveMemberRequest: MessageTypeDefinition<_quarry_identity_v1_RemoveMemberRequest, _quarry_identity_v1_RemoveMemberRequest__Output>
        RevokePersonalAccessTokenRequest: MessageTypeDefinition<_quarry_identity_v1_RevokePersonalAccessTokenRequest, _quarry_identity_v1_RevokePersonalAccessTokenRequest__Output>
        UpdateGroupRequest: MessageTypeDefinition<_quarry_identity_v1_UpdateGroupRequest, _quarry_identity_v1_UpdateGroupRequest__Output>
        UpdateMemberRequest: MessageTypeDefinition<_quarry_identity_v1_UpdateMemberRequest, _quarry_identity_v1_UpdateMemberRequest__Output>
        UpdateProjectRequest: MessageTypeDefinition<_quarry_identity_v1_UpdateProjectRequest, _quarry_identity_v1_UpdateProjectRequest__Output>
        UpdateUserRequest: MessageTypeDefinition<_quarry_identity_v1_UpdateUserRequest, _quarry_identity_v1_UpdateUserRequest__Output>
        User: MessageTypeDefinition<_quarry_identity_v1_User, _quarry_identity_v1_User__Output>
        UserProfile: MessageTypeDefinition<_quarry_identity_v1_UserProfile, _quarry_identity_v1_UserProfile__Output>
      }
    }
  }
}

