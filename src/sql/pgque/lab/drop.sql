-- The lab's reset: remove the engine with every queue, table and function in it.
drop schema if exists pgque cascade
