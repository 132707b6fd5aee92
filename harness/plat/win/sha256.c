/* harness/plat/win/sha256.c - SHA-256 of a file, for the results fingerprint: which exe produced a
 * results file. CryptoAPI's AES provider has SHA-256 from Server 2003 SP2 and XP x64 SP2 (BCrypt
 * only from 6.0); where it has not, the fingerprint says null. */
#include "harness/plat/win/win.h"
#include <wincrypt.h>

bool win_sha256_file(const wchar_t *path, char hex[65])
{
    DWORD share = FILE_SHARE_READ | FILE_SHARE_WRITE | FILE_SHARE_DELETE;
    HANDLE f = CreateFileW(path, GENERIC_READ, share, NULL, OPEN_EXISTING, 0, NULL);
    HCRYPTPROV prov = 0;
    HCRYPTHASH hash = 0;
    bool ok = f != INVALID_HANDLE_VALUE &&
              CryptAcquireContextW(&prov, NULL, NULL, PROV_RSA_AES, CRYPT_VERIFYCONTEXT) &&
              CryptCreateHash(prov, CALG_SHA_256, 0, 0, &hash);
    static BYTE buf[65536];
    DWORD n = 0, len = 32;
    while (ok && (ok = ReadFile(f, buf, sizeof buf, &n, NULL)) && n)
        ok = CryptHashData(hash, buf, n, 0);
    BYTE sum[32];
    ok = ok && CryptGetHashParam(hash, HP_HASHVAL, sum, &len, 0) && len == 32;
    for (int i = 0; ok && i < 32; i++)
        snprintf(hex + 2 * i, 3, "%02x", sum[i]);
    if (hash)
        CryptDestroyHash(hash);
    if (prov)
        CryptReleaseContext(prov, 0);
    if (f != INVALID_HANDLE_VALUE)
        CloseHandle(f);
    return ok;
}
