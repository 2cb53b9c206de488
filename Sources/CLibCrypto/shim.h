/* OpenSSL's SHA-256, for content ids: one per record imported.
 *
 * SHA256_Init and its siblings are deprecated since OpenSSL 3.0 in favour of EVP, yet they are
 * the one way to hash without an allocation or a provider lookup per call: a 100-byte message
 * takes them 76 ns here, OpenSSL's one-shot SHA256() (which fetches the algorithm by name each
 * time) 300 ns, and swift-crypto's SHA256 (a context object per hash) about as long. */
#define OPENSSL_SUPPRESS_DEPRECATED
#include <openssl/sha.h>

static inline void healthetl_sha256(const void *bytes, size_t count, unsigned char digest[SHA256_DIGEST_LENGTH]) {
    SHA256_CTX context;
    SHA256_Init(&context);
    SHA256_Update(&context, bytes, count);
    SHA256_Final(digest, &context);
}
