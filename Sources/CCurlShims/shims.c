#include "lfg_curl_shims.h"

CURLcode lfg_curl_easy_setopt_long(CURL *h, CURLoption o, long v) { return curl_easy_setopt(h, o, v); }
CURLcode lfg_curl_easy_setopt_off(CURL *h, CURLoption o, curl_off_t v) { return curl_easy_setopt(h, o, v); }
CURLcode lfg_curl_easy_setopt_pointer(CURL *h, CURLoption o, const void *v) { return curl_easy_setopt(h, o, v); }
CURLcode lfg_curl_easy_setopt_data_callback(CURL *h, CURLoption o, lfg_curl_data_callback cb) {
    return curl_easy_setopt(h, o, cb);
}
CURLcode lfg_curl_easy_getinfo_long(CURL *h, CURLINFO i, long *out) { return curl_easy_getinfo(h, i, out); }
CURLcode lfg_curl_easy_getinfo_pointer(CURL *h, CURLINFO i, void **out) { return curl_easy_getinfo(h, i, out); }
CURLcode lfg_curl_easy_getinfo_double(CURL *h, CURLINFO i, double *out) { return curl_easy_getinfo(h, i, out); }
CURLcode lfg_curl_easy_getinfo_off(CURL *h, CURLINFO i, curl_off_t *out) { return curl_easy_getinfo(h, i, out); }
CURLMcode lfg_curl_multi_setopt_long(CURLM *m, CURLMoption o, long v) { return curl_multi_setopt(m, o, v); }
CURLMcode lfg_curl_multi_setopt_pointer(CURLM *m, CURLMoption o, const void *v) { return curl_multi_setopt(m, o, v); }
