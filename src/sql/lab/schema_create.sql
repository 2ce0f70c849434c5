-- Creates a lab's own schema (its descriptor names it) if it is missing; see clock_install.sql.
select lab.create_schema($1) as made
