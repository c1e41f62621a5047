-- Trusted clients send their users' ids (X-Acting-User) as UTF-8, which the server had read
-- as Latin-1: "José" was stored as "JosÃ©". Such an id, written back as Latin-1 bytes, is
-- the UTF-8 the client sent; an id whose bytes are not UTF-8 (a client that really sent
-- Latin-1) stays as it is. An account named after its id (no X-Acting-User-Name given) is
-- renamed with it.
DO $$
DECLARE
    account record;
    fixed text;
BEGIN
    FOR account IN
        SELECT account_id, name, external_id FROM accounts
        WHERE external_id IS NOT NULL AND external_id ~ '[^\x01-\x7f]'
    LOOP
        BEGIN
            fixed := convert_from(convert_to(account.external_id, 'LATIN1'), 'UTF8');
        EXCEPTION WHEN OTHERS THEN
            CONTINUE;
        END;
        UPDATE accounts
        SET external_id = fixed,
            name = CASE WHEN name = left(account.external_id, 32) THEN left(fixed, 32)
                        ELSE name END
        WHERE account_id = account.account_id;
    END LOOP;
END
$$;
