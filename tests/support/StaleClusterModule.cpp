// A cluster module from "another build", for tst_cli: the executable must
// refuse it by its build id before calling anything else in it.
extern "C" __attribute__((visibility("default"))) const char *scalelab_cluster_module_build()
{
    return "0.0.0-another-build";
}

extern "C" __attribute__((visibility("default"))) void *scalelab_cluster_module()
{
    __builtin_trap();   // never called: the build id is checked first
}
