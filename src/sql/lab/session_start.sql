-- The first statement of a session that booted from the prepared data directory. The build
-- ran clock_install.sql in that directory, so the lab schema, lab.now() and the labs' schemas
-- are there already; what a data directory cannot hold are the session's settings. This sets
-- them as clock_install.sql does (lab time at its start unless set, the lab schema first on
-- the search path) and reads the server's version for the start panel: one statement where
-- running clock_install.sql again took seven (50-60 ms of a start in the browser).
-- After an initdb start the app runs clock_install.sql first; this then changes nothing.
-- Returns one row: clock text, search_path text, version text.
select set_config('lab.clock', coalesce(current_setting('lab.clock', true), '2026-01-05 09:00:00+00'), false) as clock,
       set_config('search_path', 'lab, pg_catalog, public', false)                                         as search_path,
       current_setting('server_version')                                                                  as version
