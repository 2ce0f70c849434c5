-- The heap page map's extensions, shipped with PGlite as contrib modules (the bridge
-- passes them to PGlite.create). Separate from setup_tables.sql so that, if they are
-- missing, only the page map is lost.
-- Parameterless: runs as one exec.
create extension if not exists pageinspect;
create extension if not exists pg_visibility;
