-- contract: jsontriga sends one event per row change: ev_type is JSON {"op","table","pkey"}, ev_data the row as one JSON object (integers, booleans, dates and timestamps as JSON values, every other type as a string, NULL as null), ev_extra1 schema.table; backup puts the old row in ev_extra2, and TRUNCATE sends '{}'.
select pgque.create_queue('q');
select pgque.subscribe('q', 'c');
create table public.item (id int primary key, "Note Text" text, flag boolean, qty int8, price numeric,
                          ratio float8, born date, seen timestamp, tags text[], doc jsonb);
create trigger cdc after insert or update or delete on public.item
  for each row execute procedure pgque.jsontriga('q', 'backup');
create trigger cdc_truncate after truncate on public.item
  for each statement execute procedure pgque.jsontriga('q');
insert into public.item values (1, 'say "hi" ü', true, 5, 1.50, 2.5, '2024-01-02', '2024-01-02 03:04:05',
                                '{a,NULL}', '{"k": [1, 2]}');
update public.item set flag = false, price = null where id = 1;
delete from public.item where id = 1;
truncate public.item;
select pgque.force_next_tick('q');
select pgque.ticker('q');
select contract.put('b1', contract.keep_events('ev', pgque.next_batch('q', 'c')));
select pgque.finish_batch(contract.got('b1'));
select contract.eq((select count(*) from contract.ev), 4::bigint, 'one event per change, and one for the truncate');
select contract.eq((select ev_type from contract.ev where n = 1),
  '{"op":"INSERT","table":["public","item"],"pkey":["id"]}', 'the INSERT''s ev_type');
select contract.eq((select ev_data from contract.ev where n = 1),
  '{"id":1,"Note Text":"say \"hi\" ü","flag":true,"qty":5,"price":"1.50","ratio":"2.5","born":"2024-01-02","seen":"2024-01-02T03:04:05","tags":"{a,NULL}","doc":"{\"k\": [1, 2]}"}',
  'the inserted row as JSON');
select contract.eq((select ev_extra1 from contract.ev where n = 1), 'public.item', 'ev_extra1 is schema.table');
select contract.eq((select ev_extra2 from contract.ev where n = 1), null::text, 'no backup for an INSERT');
select contract.eq((select ev_type from contract.ev where n = 2),
  '{"op":"UPDATE","table":["public","item"],"pkey":["id"]}', 'the UPDATE''s ev_type');
select contract.eq((select ev_data from contract.ev where n = 2),
  '{"id":1,"Note Text":"say \"hi\" ü","flag":false,"qty":5,"price":null,"ratio":"2.5","born":"2024-01-02","seen":"2024-01-02T03:04:05","tags":"{a,NULL}","doc":"{\"k\": [1, 2]}"}',
  'the new row');
select contract.eq((select ev_extra2 from contract.ev where n = 2),
  (select ev_data from contract.ev where n = 1), 'backup: the old row, written the same way');
select contract.eq((select ev_type from contract.ev where n = 3),
  '{"op":"DELETE","table":["public","item"],"pkey":["id"]}', 'the DELETE''s ev_type');
select contract.eq((select ev_data from contract.ev where n = 3),
  (select ev_data from contract.ev where n = 2), 'a DELETE sends the old row');
select contract.eq((select ev_type || ' ' || ev_data || ' ' || ev_extra1 from contract.ev where n = 4),
  '{"op":"TRUNCATE","table":["public","item"],"pkey":["id"]} {} public.item', 'TRUNCATE');
-- A table with a two-column key lists it in the key's order; a table without one has "pkey":[].
create table public.pair (b int, a int, v text, primary key (a, b));
create table public.nokey (v text);
create trigger cdc after insert on public.pair for each row execute procedure pgque.jsontriga('q');
create trigger cdc after insert on public.nokey for each row execute procedure pgque.jsontriga('q');
insert into public.pair values (2, 1, null);
insert into public.nokey values ('x');
select pgque.force_next_tick('q');
select pgque.ticker('q');
select contract.keep_events('ev2', pgque.next_batch('q', 'c'));
select contract.eq((select ev_type || ' ' || ev_data from contract.ev2 where n = 1),
  '{"op":"INSERT","table":["public","pair"],"pkey":["a","b"]} {"b":2,"a":1,"v":null}', 'a two-column key');
select contract.eq((select ev_type || ' ' || ev_data from contract.ev2 where n = 2),
  '{"op":"INSERT","table":["public","nokey"],"pkey":[]} {"v":"x"}', 'no key: INSERT still sends');
