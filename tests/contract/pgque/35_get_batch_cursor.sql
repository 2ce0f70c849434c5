-- contract: get_batch_cursor declares a cursor over an open batch's events (filtered by a trusted extra_where), returns the first quick_limit of them, and leaves the rest to fetch in the same transaction; NULL arguments give nothing.
select pgque.create_queue('q');
select pgque.subscribe('q', 'c');
select pgque.send_batch('q', 'job', array['a', 'b', 'c', 'd', 'e']);
select pgque.force_next_tick('q');
select pgque.ticker('q');
select contract.put('batch', pgque.next_batch('q', 'c'));
begin;
select contract.eq((select string_agg(ev_data, ',' order by ev_id)
                      from pgque.get_batch_cursor(contract.got('batch'), 'evs', 2)), 'a,b', 'the first two at once');
create temp table rest (ev_id bigint, ev_data text);
do $$
declare r record;
begin
  for r in execute 'fetch all from evs' loop
    insert into rest values (r.ev_id, r.ev_data);
  end loop;
end $$;
commit;
select contract.eq((select string_agg(ev_data, ',' order by ev_id) from rest), 'c,d,e', 'the rest by fetch');
begin;
select contract.eq((select string_agg(ev_data, ',' order by ev_id)
                      from pgque.get_batch_cursor(contract.got('batch'), 'odd', 10, 'ev_data in (''a'', ''c'', ''e'')')),
                   'a,c,e', 'extra_where filters');
commit;
begin;
select contract.eq((select count(*) from pgque.get_batch_cursor(contract.got('batch'), 'none', 0)), 0::bigint, 'quick_limit 0 returns none');
commit;
select contract.eq((select count(*) from pgque.get_batch_cursor(null, 'x', 5)), 0::bigint, 'a NULL batch gives nothing');
select contract.eq(pgque.finish_batch(contract.got('batch')), 1, 'finish the batch');
