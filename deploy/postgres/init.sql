-- One database per service: no service reads another's tables.
CREATE DATABASE quarry_identity;
CREATE DATABASE quarry_repo;
CREATE DATABASE quarry_ci;
CREATE DATABASE quarry_mirror;
CREATE DATABASE quarry_hook;
CREATE DATABASE quarry_collab;
CREATE DATABASE quarry_error_tracking;
CREATE DATABASE quarry_activity;
