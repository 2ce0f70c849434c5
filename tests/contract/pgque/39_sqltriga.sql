-- contract: sqltriga sends one event per row change with ev_type I/U/D and ev_data an SQL fragment: INSERT's column list and values, UPDATE's changed columns (the first key column when none changed) and the key as a where clause, DELETE's where clause; names quoted as identifiers, values as literals; TRUNCATE sends R.
select pgque.create_queue('q');
select pgque.subscribe('q', 'c');
create table public.s (id int, "Ver" int, name text, ok boolean, seen text, primary key ("Ver", id));
create trigger cdc after insert or update or delete on public.s
  for each row execute procedure pgque.sqltriga('q', 'backup', 'ignore=seen');
create trigger cdc_truncate after truncate on public.s
  for each statement execute procedure pgque.sqltriga('q');
insert into public.s values (1, 2, 'it''s', null, 'a');
update public.s set name = 'b', ok = true;
update public.s set name = name;
-- only the ignored column: no event
update public.s set seen = 'b';
update public.s set seen = 'c', ok = false;
delete from public.s;
truncate public.s;
create table public.n (id int, v text);
create trigger cdc after insert or update or delete on public.n
  for each row execute procedure pgque.sqltriga('q', 'pkey=v');
insert into public.n values (1, null);
update public.n set id = 2;
delete from public.n;
select pgque.force_next_tick('q');
select pgque.ticker('q');
select contract.keep_events('ev', pgque.next_batch('q', 'c'));
select contract.eq((select count(*) from contract.ev), 9::bigint, 'nine events: the ignored-only update sent none');
select contract.eq((select ev_type || ' ' || ev_data from contract.ev where n = 1),
  'I (id,"Ver",name,ok) values (''1'',''2'',''it''''s'',null)', 'INSERT');
select contract.eq((select ev_extra1 from contract.ev where n = 1), 'public.s', 'ev_extra1 is schema.table');
select contract.eq((select ev_type || ' ' || ev_data from contract.ev where n = 2),
  'U name=''b'',ok=''t'' where id=''1'' and "Ver"=''2''', 'UPDATE: the changed columns, the key in column order');
select contract.eq((select ev_extra2 from contract.ev where n = 2),
  'name=''it''''s'',ok=NULL where id=''1'' and "Ver"=''2''', 'backup: the same columns with the old values');
select contract.eq((select ev_data from contract.ev where n = 3),
  'id=''1'' where id=''1'' and "Ver"=''2''', 'no column changed: the first key column set to itself');
select contract.eq((select ev_data from contract.ev where n = 4),
  'ok=''f'' where id=''1'' and "Ver"=''2''', 'an ignored column is not in the set list');
select contract.eq((select ev_type || ' ' || ev_data from contract.ev where n = 5),
  'D id=''1'' and "Ver"=''2''', 'DELETE');
select contract.eq((select ev_type || '|' || ev_data || '|' || ev_extra1 from contract.ev where n = 6),
  'R||public.s', 'TRUNCATE');
select contract.eq((select string_agg(ev_type || ' ' || ev_data, ', ' order by n) from contract.ev where n > 6),
  'I (id,v) values (''1'',null), U id=''2'' where v is null, D v is null', 'a NULL key value is "is null"');
