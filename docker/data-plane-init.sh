#!/bin/sh
# The data plane's first start: the role the platform manages users' databases as (CREATEDB and
# CREATEROLE, not a superuser), a database of its own, and nothing else open to the public.
set -e
psql -v ON_ERROR_STOP=1 --username "$POSTGRES_USER" --dbname postgres <<SQL
CREATE ROLE platform_admin LOGIN CREATEDB CREATEROLE PASSWORD '${DATA_PLANE_ADMIN_PASSWORD}';
CREATE DATABASE platform_admin OWNER platform_admin;
REVOKE CONNECT ON DATABASE postgres, template1, platform_admin FROM PUBLIC;
SQL
