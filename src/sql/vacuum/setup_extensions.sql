-- The heap page map's extensions, shipped with PGlite as contrib modules (the bridge
-- passes them to PGlite.create). Separate from setup_tables.sql so that, if they are
-- missing, only the page map is lost.
-- Installed in public, which is on every search path the lab uses (its strategies switch
-- the path between the vac_* schemas).
-- Parameterless: runs as one exec.
create extension if not exists pageinspect with schema public;
create extension if not exists pg_visibility with schema public;
