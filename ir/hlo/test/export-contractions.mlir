// Tests the export of dot_general, convolution, gather and scatter with
// HLO's dimension-number attributes, and that the text reads back the same.
// RUN: torusc %s --emit=hlo -o %t.hlo
// RUN: FileCheck %s --input-file=%t.hlo
// RUN: torusc %t.hlo --emit=hlo | diff %t.hlo -
// RUN: torusc %t.hlo --emit=torus | FileCheck %s --check-prefix=TORUS

// CHECK-LABEL: %replace_f32 (x: f32[], y: f32[]) -> f32[] {
// CHECK-NEXT: %x.replace_f32 = f32[] parameter(0)
// CHECK-NEXT: ROOT %y.replace_f32 = f32[] parameter(1)
// CHECK-LABEL: ENTRY %contractions
func.func @contractions(%a: tensor<4x2x8xf32>, %b: tensor<4x8x5xf32>, %m: tensor<8x16xf32>, %k: tensor<16x3xf32>,
                        %x: tensor<1x8x8x4xf32>, %w: tensor<3x3x2x6xf32>, %n: tensor<2x3x9x9xf64>, %f: tensor<5x3x3x3xf64>,
                        %table: tensor<10x4xf32>, %ids: tensor<3xi32>, %rows: tensor<3x4xf32>)
    -> (tensor<4x2x5xf32>, tensor<8x3xf32>, tensor<1x4x4x6xf32>, tensor<2x5x5x5xf64>, tensor<3x4xf32>,
        tensor<10x4xf32>, tensor<10x4xf32>, tensor<10x4xf32>) {
  // CHECK: f32[4,2,5]{2,1,0} dot(f32[4,2,8]{2,1,0} %a, f32[4,8,5]{2,1,0} %b), lhs_batch_dims={0}, lhs_contracting_dims={2}, rhs_batch_dims={0}, rhs_contracting_dims={1}
  // TORUS: torus.dot_general %{{.*}}, %{{.*}}, batching_dims = [0] x [0], contracting_dims = [2] x [1]
  %0 = torus.dot_general %a, %b, batching_dims = [0] x [0], contracting_dims = [2] x [1] : (tensor<4x2x8xf32>, tensor<4x8x5xf32>) -> tensor<4x2x5xf32>
  // CHECK: f32[8,3]{1,0} dot(f32[8,16]{1,0} %m, f32[16,3]{1,0} %k), lhs_contracting_dims={1}, rhs_contracting_dims={0}
  // TORUS: torus.dot_general %{{.*}}, %{{.*}}, batching_dims = [] x [], contracting_dims = [1] x [0]
  %1 = torus.dot_general %m, %k, batching_dims = [] x [], contracting_dims = [1] x [0] : (tensor<8x16xf32>, tensor<16x3xf32>) -> tensor<8x3xf32>
  // NHWC input, HWIO kernel, stride 2, padding 1, two feature groups.
  // CHECK: f32[1,4,4,6]{3,2,1,0} convolution(f32[1,8,8,4]{3,2,1,0} %x, f32[3,3,2,6]{3,2,1,0} %w), window={size=3x3 stride=2x2 pad=1_1x1_1}, dim_labels=b01f_01io->b01f, feature_group_count=2
  // TORUS: torus.convolution %{{.*}}, %{{.*}}, dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f] {feature_group_count = 2 : i64, padding = dense<1> : tensor<2x2xi64>, window_strides = array<i64: 2, 2>}
  %2 = torus.convolution %x, %w, dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f] {window_strides = array<i64: 2, 2>, padding = dense<1> : tensor<2x2xi64>, feature_group_count = 2 : i64} : (tensor<1x8x8x4xf32>, tensor<3x3x2x6xf32>) -> tensor<1x4x4x6xf32>
  // NCHW input, OIHW kernel, kernel dilation.
  // CHECK: f64[2,5,5,5]{3,2,1,0} convolution(f64[2,3,9,9]{3,2,1,0} %n, f64[5,3,3,3]{3,2,1,0} %f), window={size=3x3 rhs_dilate=2x2}, dim_labels=bf01_oi01->bf01
  // TORUS: torus.convolution %{{.*}}, %{{.*}}, dim_numbers = [b, f, 0, 1]x[o, i, 0, 1]->[b, f, 0, 1] {rhs_dilation = array<i64: 2, 2>}
  %3 = torus.convolution %n, %f, dim_numbers = [b, f, 0, 1]x[o, i, 0, 1]->[b, f, 0, 1] {rhs_dilation = array<i64: 2, 2>} : (tensor<2x3x9x9xf64>, tensor<5x3x3x3xf64>) -> tensor<2x5x5x5xf64>
  // CHECK: f32[3,4]{1,0} gather(f32[10,4]{1,0} %table, s32[3]{0} %ids), offset_dims={1}, collapsed_slice_dims={0}, start_index_map={0}, index_vector_dim=1, slice_sizes={1,4}, indices_are_sorted=true
  // TORUS: torus.gather %{{.*}}[%{{.*}}], offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1, slice_sizes = [1, 4] {indices_are_sorted}
  %4 = torus.gather %table[%ids], offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1, slice_sizes = [1, 4] {indices_are_sorted} : (tensor<10x4xf32>, tensor<3xi32>) -> tensor<3x4xf32>
  // CHECK: f32[10,4]{1,0} scatter(f32[10,4]{1,0} %table, s32[3]{0} %ids, f32[3,4]{1,0} %rows), update_window_dims={1}, inserted_window_dims={0}, scatter_dims_to_operand_dims={0}, index_vector_dim=1, to_apply=%replace_f32
  // TORUS: torus.scatter replace
  %5 = torus.scatter replace %table[%ids], %rows, update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1 : (tensor<10x4xf32>, tensor<3xi32>, tensor<3x4xf32>) -> tensor<10x4xf32>
  // CHECK: index_vector_dim=1, unique_indices=true, to_apply=%sum_f32
  // TORUS: torus.scatter sum %{{.*}} {unique_indices}
  %6 = torus.scatter sum %table[%ids], %rows, update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1 {unique_indices} : (tensor<10x4xf32>, tensor<3xi32>, tensor<3x4xf32>) -> tensor<10x4xf32>
  // CHECK: to_apply=%max_f32
  // TORUS: torus.scatter max
  %7 = torus.scatter max %table[%ids], %rows, update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1 : (tensor<10x4xf32>, tensor<3xi32>, tensor<3x4xf32>) -> tensor<10x4xf32>
  return %0, %1, %2, %3, %4, %5, %6, %7 : tensor<4x2x5xf32>, tensor<8x3xf32>, tensor<1x4x4x6xf32>, tensor<2x5x5x5xf64>, tensor<3x4xf32>, tensor<10x4xf32>, tensor<10x4xf32>, tensor<10x4xf32>
}
