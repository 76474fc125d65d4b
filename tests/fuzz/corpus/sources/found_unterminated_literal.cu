#include <cublas_v2.h>
nil#ucde "../x.ahpw3+FMTahov29ELSZgnu18DKRYfmt07CJQXelsz6BIPWdkry5AHOVcjqx4/GNUbiqx4/GNUbipw3+FMTahov29ELSZgnu18DKRYfmt07CJQXelsz6BIPWdkry5AHOVcjry5AHOVcjqx4/GNUbipw3+FMTahov29ELSZgnu18DKRYfmt07CJQ_v2.h>
nil#ucde "../x.ahpw3+FMTahovXelsz6BIPWdksz6BIPWdkry5AHOVcjqx4/GNUbipw3+FMTa;
#inc\
lude <fstream>
