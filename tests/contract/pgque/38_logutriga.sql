-- contract: logutriga sends one event per row change: ev_type I:/U:/D: followed by the key's columns, ev_data the row URL-encoded (space as '+', other bytes as lowercase %xx, a NULL column as its bare name); ignore= leaves columns out and an update of only those sends nothing; pkey= names the key; TRUNCATE sends R.
select pgque.create_queue('q');
select pgque.subscribe('q', 'c');
create table public.acct (k2 text, id int, "Weird Col" text, note text, ok boolean, seen_at text,
                          primary key (k2, id));
create trigger cdc after insert or update or delete on public.acct
  for each row execute procedure pgque.logutriga('q', 'ignore=seen_at', 'backup');
create trigger cdc_truncate after truncate on public.acct
  for each statement execute procedure pgque.logutriga('q');
insert into public.acct values ('a/b', 1, '', 'x & y = 100% ü~', true, 'mon');
-- only the ignored column: no event
update public.acct set seen_at = 'tue';
update public.acct set seen_at = 'wed', ok = false;
update public.acct set note = null;
delete from public.acct;
truncate public.acct;
create table public.plain (code text, v int);
create trigger cdc after insert or update or delete on public.plain
  for each row execute procedure pgque.logutriga('q', 'pkey=code');
insert into public.plain values ('c 1', 2);
update public.plain set v = 3;
select pgque.force_next_tick('q');
select pgque.ticker('q');
select contract.keep_events('ev', pgque.next_batch('q', 'c'));
select contract.eq((select count(*) from contract.ev), 7::bigint, 'seven events: the ignored-only update sent none');
select contract.eq((select ev_type || ' ' || ev_data from contract.ev where n = 1),
  'I:k2,id k2=a%2fb&id=1&Weird+Col=&note=x+%26+y+%3d+100%25+%c3%bc%7e&ok=t',
  'INSERT: the key in its order; URL-encoded values; '''' is "name=", the ignored column left out');
select contract.eq((select ev_extra1 from contract.ev where n = 1), 'public.acct', 'ev_extra1 is schema.table');
select contract.eq((select ev_type || ' ' || ev_data from contract.ev where n = 2),
  'U:k2,id k2=a%2fb&id=1&Weird+Col=&note=x+%26+y+%3d+100%25+%c3%bc%7e&ok=f', 'UPDATE: the new row');
select contract.eq((select ev_extra2 from contract.ev where n = 2),
  (select ev_data from contract.ev where n = 1), 'backup: the old row in ev_extra2');
select contract.eq((select ev_data from contract.ev where n = 3),
  'k2=a%2fb&id=1&Weird+Col=&note&ok=f', 'a NULL column is its bare name');
select contract.eq((select ev_type || ' ' || ev_data from contract.ev where n = 4),
  'D:k2,id k2=a%2fb&id=1&Weird+Col=&note&ok=f', 'DELETE: the old row');
select contract.eq((select ev_type || '|' || ev_data || '|' || ev_extra1 from contract.ev where n = 5),
  'R||public.acct', 'TRUNCATE');
select contract.eq((select string_agg(ev_type || ' ' || ev_data, ', ' order by n) from contract.ev where n > 5),
  'I:code code=c+1&v=2, U:code code=c+1&v=3', 'pkey= on a table without a primary key');
