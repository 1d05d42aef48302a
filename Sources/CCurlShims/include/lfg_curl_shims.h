// Typed wrappers for libcurl's variadic functions, which Swift cannot call.
// One wrapper per argument type, not per option. Every symbol is prefixed lfg_curl_.
#pragma once
#include <curl/curl.h>

typedef size_t (*lfg_curl_data_callback)(char *ptr, size_t size, size_t nmemb, void *userdata);

CURLcode lfg_curl_easy_setopt_long(CURL *handle, CURLoption option, long value);
CURLcode lfg_curl_easy_setopt_off(CURL *handle, CURLoption option, curl_off_t value);
CURLcode lfg_curl_easy_setopt_pointer(CURL *handle, CURLoption option, const void *value);
CURLcode lfg_curl_easy_setopt_data_callback(CURL *handle, CURLoption option, lfg_curl_data_callback callback);
CURLcode lfg_curl_easy_getinfo_long(CURL *handle, CURLINFO info, long *out);
CURLcode lfg_curl_easy_getinfo_pointer(CURL *handle, CURLINFO info, void **out);
CURLcode lfg_curl_easy_getinfo_double(CURL *handle, CURLINFO info, double *out);
CURLcode lfg_curl_easy_getinfo_off(CURL *handle, CURLINFO info, curl_off_t *out);
CURLMcode lfg_curl_multi_setopt_long(CURLM *multi, CURLMoption option, long value);
CURLMcode lfg_curl_multi_setopt_pointer(CURLM *multi, CURLMoption option, const void *value);
